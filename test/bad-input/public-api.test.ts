import fc from 'fast-check';
import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';
import {
  envelopeProblem,
  fingerprint,
  fixedBodies,
  hostileBody,
  hostileHeaders,
  hostileQuery,
  operationsOf,
  pathId,
  prototypePollution,
  runSeed,
  send,
  type BodyCase,
  type Operation,
  type RawAnswer,
} from './hostile-requests';

/**
 * Random and hostile input on every public operation of the OpenAPI document: bodies
 * (anything, wrong types, deep nesting, huge, prototype-pollution keys, invalid UTF-8, not
 * JSON), query strings and headers. Every answer is a 4xx error envelope (or a 2xx when the
 * input happens to be valid), never a 5xx, and a refused request changes nothing in the
 * database. Runs are seeded; the seed is printed for replay (FC_SEED).
 */

const SEED = runSeed();
// Bounded so the file stays at a few minutes over its 45 operations; FC_RUNS raises it for a
// deeper local search.
const BODY_RUNS = Number(process.env.FC_RUNS ?? 15);
const HEADER_RUNS = Math.ceil(BODY_RUNS / 3);

let stack: Stack;
let account: TestAccount;
let operations: Operation[];
const fixtures: Record<
  '@own-job-changes' | '@own-watchlist' | '@own-fundraising' | '@own-hiring' | '@other-account',
  string
> = {
  '@own-job-changes': '',
  '@own-watchlist': '',
  '@own-fundraising': '',
  '@own-hiring': '',
  '@other-account': '',
};
let other: TestAccount;
/** Per operation: answers seen, by status, for the log and the coverage check. */
const seen = new Map<string, Map<number, number>>();

const FIXTURE_CONFIGS = {
  'job-changes': { jobTitles: ['Chief Technology Officer'] },
  'account-watchlist': { companies: ['acme.com', { name: 'Globex', domain: 'globex.com' }] },
  fundraising: { fundingStages: ['Series A'], minAmountUsd: 1_000_000, targetPersonas: ['Chief Technology Officer'] },
  hiring: { keywords: ['Kubernetes'], departments: ['engineering'], jobLocations: ['Germany'] },
};

async function createSignal(owner: TestAccount, kind: keyof typeof FIXTURE_CONFIGS): Promise<string> {
  const config = FIXTURE_CONFIGS[kind];
  const answer = await call(`${stack.url}/api/v1/signals/${kind}`, {
    token: owner.apiKey,
    body: { name: `Hostile-input target ${kind}`, config },
  });
  if (answer.status !== 201) throw new Error(`fixture signal not created: ${answer.status} ${answer.text}`);
  return answer.body.id;
}

/** A valid request may delete or pause a fixture signal: bring the fixtures back before the next request. */
async function ensureFixtures(): Promise<void> {
  const live = new Set<string>(
    (
      await stack.db.query(`SELECT id FROM signals WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`, [
        Object.values(fixtures).filter(Boolean),
      ])
    ).map((r: { id: string }) => r.id),
  );
  if (!live.has(fixtures['@own-job-changes']))
    fixtures['@own-job-changes'] = await createSignal(account, 'job-changes');
  if (!live.has(fixtures['@own-watchlist']))
    fixtures['@own-watchlist'] = await createSignal(account, 'account-watchlist');
  if (!live.has(fixtures['@own-fundraising']))
    fixtures['@own-fundraising'] = await createSignal(account, 'fundraising');
  if (!live.has(fixtures['@own-hiring'])) fixtures['@own-hiring'] = await createSignal(account, 'hiring');
  if (!live.has(fixtures['@other-account'])) fixtures['@other-account'] = await createSignal(other, 'job-changes');
}

function targetOf(operation: Operation, id: string, query: string | undefined): string {
  const segment = id in fixtures ? fixtures[id as keyof typeof fixtures] : id;
  const path = operation.path.replace(/\{\w+\}/g, segment);
  return query === undefined ? path : `${path}?${query}`;
}

const takesBody = (operation: Operation) => operation.method !== 'GET';

function describeRequest(
  operation: Operation,
  target: string,
  headers: Record<string, string | string[]>,
  body?: BodyCase,
): string {
  const shownHeaders = Object.fromEntries(
    Object.entries(headers)
      .map(([k, v]) => [k, String(v).slice(0, 80)])
      .slice(0, 6),
  );
  const shownBody = body
    ? `${body.kind} body (${body.bytes.length} bytes): ${JSON.stringify(body.bytes.subarray(0, 160).toString('latin1'))}`
    : 'no body';
  return `${operation.method} ${target.slice(0, 200)} headers ${JSON.stringify(shownHeaders)} ${shownBody}`;
}

/**
 * Sends one request and checks the answer; a refused request must leave the database as it
 * was. Throws with the request described, so fast-check reports and shrinks it.
 */
async function expectRefusedOrValid(
  operation: Operation,
  target: string,
  headers: Record<string, string | string[]>,
  body?: BodyCase,
): Promise<void> {
  await ensureFixtures();
  const before = await fingerprint(stack.db, account.accountId);
  let answer: RawAnswer;
  try {
    answer = await send(stack.url, {
      method: operation.method,
      target,
      headers,
      ...(body ? { body: body.bytes } : {}),
    });
  } catch (err) {
    throw new Error(`no answer (${(err as Error).message}) to ${describeRequest(operation, target, headers, body)}`);
  }
  const counts = seen.get(operation.operationId) ?? new Map<number, number>();
  counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  seen.set(operation.operationId, counts);

  if (answer.status >= 200 && answer.status < 300) return; // The input happened to be valid.
  // Readiness answers 503 by design while a part is missing, in the envelope.
  const readinessDown = operation.operationId === 'readiness' && answer.status === 503;
  if ((answer.status < 400 || answer.status >= 500) && !readinessDown) {
    throw new Error(
      `answered ${answer.status} ${answer.text.slice(0, 300)} to ${describeRequest(operation, target, headers, body)}`,
    );
  }
  const problem = envelopeProblem(answer);
  if (problem)
    throw new Error(
      `answered ${answer.status} without the error envelope (${problem}) to ${describeRequest(operation, target, headers, body)}`,
    );
  const after = await fingerprint(stack.db, account.accountId);
  const changed = Object.keys(before).filter((table) => before[table] !== after[table]);
  if (changed.length > 0) {
    throw new Error(
      `refused with ${answer.status} but changed ${changed.map((t) => `${t} (${before[t]} → ${after[t]})`).join(', ')}: ${describeRequest(operation, target, headers, body)}`,
    );
  }
  const polluted = prototypePollution();
  if (polluted.length > 0)
    throw new Error(
      `Object.prototype polluted (${polluted.join(', ')}) by ${describeRequest(operation, target, headers, body)}`,
    );
}

/**
 * fc.assert, with a failure message that stays readable: the counterexamples hold megabytes
 * of text, so the report names the operation, the seed and path, and the request described.
 */
async function holds<T>(
  operation: Operation,
  property: fc.IAsyncProperty<T>,
  parameters: fc.Parameters<T>,
): Promise<void> {
  const details = await fc.check(property, { ...parameters, endOnFailure: true });
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `${operation.operationId}: ${cause}\n(seed ${details.seed}, path "${details.counterexamplePath}", after ${details.numRuns} runs)`,
    );
  }
}

beforeAll(async () => {
  // Live enrichment lookups take seconds by design; here they would only slow the runs.
  stack = await startStack({
    env: { SIGNAL_EVALUATION_INTERVAL: '1h', RATE_LIMIT_PER_SECOND: '100000', ENRICHMENT_LIVE_LATENCY_MS: '0' },
  });
  account = await createAccount(stack, { credits: 500 });
  other = await createAccount(stack, { credits: 10, name: 'Another account' });
  await ensureFixtures();
  const document = await call(`${stack.url}/api/v1/openapi.json`);
  expect(document.status).toBe(200);
  operations = operationsOf(document.body);
}, 60_000);

afterAll(async () => {
  console.log(
    `[bad-input] answers by operation: ${[...seen].map(([op, counts]) => `${op} ${JSON.stringify(Object.fromEntries(counts))}`).join('; ')}`,
  );
  await stack?.stop();
});

test('the OpenAPI document lists the public operations this suite attacks', () => {
  const ids = operations.map((o) => o.operationId);
  expect(ids).toEqual(
    expect.arrayContaining([
      'createJobChangesSignal',
      'createFundraisingSignal',
      'createHiringSignal',
      'updateSignal',
      'listSignalLeads',
      'addWatchedCompanies',
      'getCreditUsage',
      'health',
    ]),
  );
  expect(operations.filter((o) => !o.public).length).toBeGreaterThan(15);
});

// Every operation (45 today) times its runs, each hashing the whole store before and after: minutes
// on a loaded 2-core machine, and more with each route; the time-outs leave room for that.
test('hostile bodies, queries and path ids on every operation: a 4xx envelope, never a 5xx, nothing changed', async () => {
  const json = { 'Content-Type': 'application/json', Authorization: `Bearer ${account.apiKey}` };
  for (const operation of operations) {
    const fields = operation.bodyFields ?? [];
    const request = fc.record({
      id: pathId,
      query: fc.option(hostileQuery(operation.queryParams), { nil: undefined }),
      body: takesBody(operation) ? fc.option(hostileBody(fields), { nil: undefined, freq: 6 }) : fc.constant(undefined),
    });
    const examples: [{ id: string; query: string | undefined; body: BodyCase | undefined }][] = takesBody(operation)
      ? fixedBodies(fields).map((body) => [{ id: '@own-job-changes', query: undefined, body }])
      : [];
    await holds(
      operation,
      fc.asyncProperty(request, async ({ id, query, body }) => {
        await expectRefusedOrValid(operation, targetOf(operation, id, query), json, body);
      }),
      { seed: SEED, numRuns: BODY_RUNS, examples },
    );
  }
}, 400_000);

test('hostile headers on every operation: a 4xx envelope, never a 5xx, nothing changed', async () => {
  for (const operation of operations) {
    const request = fc.record({
      id: fc.constantFrom('@own-job-changes', '@own-watchlist', '@own-fundraising', '@own-hiring'),
      headers: hostileHeaders(account.apiKey),
      body: takesBody(operation)
        ? fc.constantFrom(undefined, Buffer.from('{}'), Buffer.from('{"name":"x"}'))
        : fc.constant(undefined),
    });
    await holds(
      operation,
      fc.asyncProperty(request, async ({ id, headers, body }) => {
        await expectRefusedOrValid(
          operation,
          targetOf(operation, id, undefined),
          headers.headers,
          body ? { kind: headers.kind, bytes: body } : undefined,
        );
      }),
      { seed: SEED, numRuns: HEADER_RUNS },
    );
  }
}, 300_000);
