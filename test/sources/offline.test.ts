import { findFreePort } from '../../infra/net/ports';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { allLeads, client, createSignal, daysAgo, ingest, jobChanger, settled } from '../leads/fixtures';
import { startVendor, type VendorServer } from './vendors';

/**
 * `npm start` without internet: every board host unreachable, each in its own way (nothing
 * listening, a name that does not resolve, a host that never answers). The source says so in
 * its status in one line, the log gets one warn line per run, and leads are still made.
 */
let stack: Stack;
let silent: VendorServer;
let releaseSilent: () => void;
const logged: { level: number; source?: string; msg: string }[] = [];
const WARN = 40;

beforeAll(async () => {
  silent = await startVendor();
  const held = new Promise<void>((resolve) => (releaseSilent = resolve));
  silent.answer('/posting-api/job-board/gamma?includeCompensation=true', { hold: held });
  const closedPort = await findFreePort();
  stack = await startStack({
    env: {
      LOG_LEVEL: 'warn',
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_HOST_MAP: [
        `boards-api.greenhouse.io=http://127.0.0.1:${closedPort}`,
        'api.lever.co=http://boards.nowhere.invalid',
        `api.ashbyhq.com=${silent.origin}`,
      ].join(','),
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '500',
    },
    logDestination: { write: (line: string) => void logged.push(JSON.parse(line)) },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  const companies = ['acme', 'acme-eu', 'beta', 'gamma'].map((id) => ({ kind: 'company', id, name: `${id} Inc` }));
  expect((await stack.services.ingestion.ingest(companies)).accepted).toBe(companies.length);
  for (const [companyId, ats, token] of [
    ['acme', 'greenhouse', 'acme'],
    ['acme-eu', 'greenhouse', 'acme-eu'],
    ['beta', 'lever', 'beta'],
    ['gamma', 'ashby', 'gamma'],
  ] as const) {
    const linked = await call(`${stack.url}/admin/v1/companies/${companyId}/job-board`, {
      method: 'PUT',
      token: TEST_ADMIN_TOKEN,
      body: { ats, token },
    });
    expect(linked.status).toBe(200);
  }
});

afterAll(async () => {
  // A held request waits for its path's next answer: give it one before letting it go.
  silent?.answer('/posting-api/job-board/gamma?includeCompensation=true', { status: 503 });
  releaseSilent?.();
  await stack?.stop();
  await silent?.close();
});

async function runJobBoards() {
  const before = (await stack.services.sources.get('job-boards')).lastRunFinishedAt;
  const answer = await call(`${stack.url}/admin/v1/sources/job-boards/run`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
  });
  expect(answer.status).toBe(200);
  for (let i = 0; i < 300; i++) {
    const status = await stack.services.sources.get('job-boards');
    if (status.lastRunFinishedAt !== before && !status.running) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the job-boards run did not finish within a minute');
}

const sourceWarnings = () => logged.filter((line) => line.level === WARN && line.source === 'job-boards');

test('unreachable hosts: one plain status line naming the real host, one warn line per run, and leads still come', async () => {
  const status = await runJobBoards();

  // Boards run in (ats, token) order; the last one, on Lever, names the name that did not resolve.
  const answer = await call(`${stack.url}/admin/v1/sources`, { token: TEST_ADMIN_TOKEN });
  expect(answer.status).toBe(200);
  const listed = answer.body.data.find((source: { name: string }) => source.name === 'job-boards');
  expect(listed).toMatchObject({ running: false, errors: 4, recordsIngested: 0 });
  expect(listed.lastError).toMatch(/^offline: could not reach api\.lever\.co \((ENOTFOUND|EAI_AGAIN)\)$/);
  expect(status.lastError).toBe(listed.lastError);

  const boards = await stack.db.query(`SELECT ats, token, last_error FROM company_job_boards ORDER BY ats, token`);
  expect(boards).toEqual([
    {
      ats: 'ashby',
      token: 'gamma',
      last_error: 'Ashby board "gamma": offline: could not reach api.ashbyhq.com (no answer within 0.5 s)',
    },
    {
      ats: 'greenhouse',
      token: 'acme',
      last_error: 'Greenhouse board "acme": offline: could not reach boards-api.greenhouse.io (ECONNREFUSED)',
    },
    {
      ats: 'greenhouse',
      token: 'acme-eu',
      last_error: 'Greenhouse board "acme-eu": offline: could not reach boards-api.greenhouse.io (ECONNREFUSED)',
    },
    { ats: 'lever', token: 'beta', last_error: expect.stringMatching(/^Lever board "beta": offline: could not reach/) },
  ]);
  // The silent host was asked (and given up on after the time-out), the others never answered anything.
  expect(silent.requests.map((r) => r.path)).toEqual(['/posting-api/job-board/gamma?includeCompensation=true']);

  // Quietly: the run's first unreachable board is the one warn line; no line per board, no stack trace.
  expect(sourceWarnings()).toEqual([
    expect.objectContaining({
      msg: 'source job-boards is offline: could not reach api.ashbyhq.com (no answer within 0.5 s); its other unreachable items this run are not logged',
    }),
  ]);
  expect(JSON.stringify(logged)).not.toMatch(/source item failed|\bat .*\.js:\d+/);

  await runJobBoards();
  expect(sourceWarnings()).toHaveLength(2);
  expect((await stack.services.sources.get('job-boards')).errors).toBe(8);

  // Meanwhile the rest of the service works: an ingested job change becomes a lead.
  const api = client(stack, await createAccount(stack, { credits: 10 }));
  const changer = jobChanger('offline-cto', daysAgo(2));
  await ingest(stack, changer.records);
  const signal = await createSignal(api, 'job-changes', {
    name: 'Offline day',
    status: 'active',
    config: { jobTitles: ['Chief Technology Officer'] },
  });
  await settled(stack, signal.id);
  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(1);
  expect(leads[0].contact).toMatchObject({ title: 'CTO' });
});
