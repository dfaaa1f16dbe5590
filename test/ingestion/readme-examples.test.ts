import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '../../src/logger';
import { ingestionSink } from '../../src/providers/data/data-provider';
import { DemoDataProvider, DemoStore } from '../../src/providers/data/demo-provider';
import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';

/**
 * Issue 38, item 11: every signal the README and the API guide create by example finds
 * something in the demo data a fresh start seeds (the hiring example previewed 0). The examples
 * are read from the documents themselves, so a changed example is checked as it reads.
 */
const PROJECT = path.resolve(__dirname, '../..');
let stack: Stack;
let account: TestAccount;

interface Example {
  document: string;
  type: string;
  body: Record<string, unknown>;
}

/** `curl ... /api/v1/signals/<type> ... -d '<json>'` in a document's code blocks. */
function examplesOf(document: string): Example[] {
  const text = readFileSync(path.join(PROJECT, document), 'utf8');
  const found: Example[] = [];
  const pattern = /\/api\/v1\/signals\/(job-changes|fundraising|hiring|account-watchlist) \\\n[^\n]*\n\s+-d '([^']+)'/g;
  for (const match of text.matchAll(pattern)) {
    found.push({ document, type: match[1]!, body: JSON.parse(match[2]!) as Record<string, unknown> });
  }
  return found;
}

const TYPE_IDS: Record<string, string> = {
  'job-changes': 'job_changes',
  fundraising: 'fundraising',
  hiring: 'hiring',
  'account-watchlist': 'account_watchlist',
};

beforeAll(async () => {
  stack = await startStack({ worker: false });
  account = await createAccount(stack, { credits: 100 });
  const provider = new DemoDataProvider(new DemoStore(stack.db), createLogger('silent'), {
    intervalMs: 60_000,
    clock: stack.services.clock,
  });
  await provider.seedHistory(ingestionSink(stack.services.ingestion));
});
afterAll(() => stack?.stop());

test('the documents create signals by example', () => {
  const examples = [...examplesOf('README.md'), ...examplesOf('docs/dashboard-and-api.md')];
  expect(examples.map((e) => `${e.document}: ${e.type}`)).toEqual(
    expect.arrayContaining([
      'README.md: job-changes',
      'docs/dashboard-and-api.md: fundraising',
      'docs/dashboard-and-api.md: hiring',
    ]),
  );
});

test('each example previews matches in the demo data a fresh start seeds', async () => {
  const examples = [...examplesOf('README.md'), ...examplesOf('docs/dashboard-and-api.md')];
  const previewed = [];
  for (const example of examples) {
    const answer = await call(`${stack.url}/api/v1/signals/preview`, {
      token: account.apiKey,
      body: { ...example.body, signalTypeId: TYPE_IDS[example.type] },
    });
    expect(answer.status).toBe(200);
    previewed.push({
      example: `${example.document}: ${String(example.body.name)}`,
      found: answer.body.matchingEvents > 0,
    });
  }
  expect(previewed.filter((p) => !p.found)).toEqual([]);
});
