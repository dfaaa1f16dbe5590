import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { activateSignal, FAULT_ENV, note, prepareLeadFlow, waitForEveryLeadDelivered } from '../faults/lead-flow';
import type { DocumentThreads } from '../../src/sources/kit/document-threads';
import { startVendor, type VendorServer } from './vendors';
import { hostile } from './hostile-fixtures';
import { runSourceNow } from './source-runs';

/**
 * Issue 31, findings 1 and 2: a customer decides which sites the service reads, so a site may
 * serve a page whose parse grows with the square of its unclosed tags, a feed of a million empty
 * elements, or a board of arrays inside arrays. Each is its item's problem; the worker's event
 * loop is never the parser's, so leads are produced and delivered meanwhile.
 */
let stack: Stack;
let site: VendorServer;
let slow: VendorServer;

const html = (text: string) => ({ text, contentType: 'text/html; charset=utf-8' });
const xml = (text: string) => ({ text, contentType: 'application/rss+xml' });

beforeAll(async () => {
  [site, slow] = await Promise.all([startVendor(), startVendor()]);
  const hosts = ['hostile-site.com', 'www.hostile-site.com', 'boards-api.greenhouse.io'];
  stack = await startStack({
    env: {
      ...FAULT_ENV,
      SOURCES_HOST_MAP: [...hosts.map((host) => `${host}=${site.origin}`), `slow-site.com=${slow.origin}`].join(','),
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '30000',
      COMPANY_PROFILES_INTERVAL: '24h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await stack?.services.documents.close();
  await stack?.stop();
  await Promise.all([site?.close(), slow?.close()]);
});

const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e6);

/** Each document read by the worker's document threads, with the event-loop turns seen while it was read. */
function watchReads(documents: DocumentThreads) {
  const reads: { kind: string; ticks: number; answer: unknown }[] = [];
  const read = documents.read.bind(documents);
  documents.read = (async (kind: Parameters<typeof read>[0], ...args: unknown[]) => {
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 1);
    try {
      const answer = await (read as (...all: unknown[]) => Promise<unknown>)(kind, ...args);
      reads.push({ kind, ticks, answer });
      return answer;
    } finally {
      clearInterval(ticking);
    }
  }) as typeof documents.read;
  return reads;
}

test('a quadratic page, an element bomb in a feed and nested JSON from a board are their items’ problems, while leads are produced and delivered', async () => {
  const reads = watchReads(stack.services.documents);
  await stack.services.ingestion.ingest([
    { kind: 'company', id: 'hostile', name: 'Hostile Site', domain: 'hostile-site.com' },
    { kind: 'company', id: 'slow', name: 'Slow Site', domain: 'slow-site.com' },
  ]);
  // 320,000 unclosed <span> (1.9 MB): 62 s of htmlparser2 on the event loop before.
  site.answer('/', html(hostile.quadraticPage()));
  // slow-site.com's homepage is within every limit but takes most of a second to read.
  slow.answer('/', html(hostile.slowPage('Slow Site')));
  await stack.services.companyFeeds.remember('hostile', [
    'https://hostile-site.com/feed.xml',
    'https://hostile-site.com/bomb.xml',
  ]);
  // 4.9 million empty elements (19 MB: the feeds' 5 MB download cap stops it before any parse)
  // and a million (3.8 MB: within the cap, refused by its count before the parser builds anything).
  site.answer('/feed.xml', xml(hostile.elementBomb(4_900_000)));
  site.answer('/bomb.xml', xml(hostile.elementBomb(1_000_000)));
  const linked = await call(`${stack.url}/admin/v1/companies/hostile/job-board`, {
    method: 'PUT',
    token: TEST_ADMIN_TOKEN,
    body: { ats: 'greenhouse', token: 'hostile' },
  });
  expect(linked.status).toBe(200);
  // Three million arrays inside one another (6 MB).
  site.answer('/v1/boards/hostile/jobs?content=true', {
    text: hostile.nestedJson(3_000_000),
    contentType: 'application/json',
  });

  // The event loop's delays while the sources read, for the log only (timings are the bench's).
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const flow = await activateSignal(await prepareLeadFlow(stack, 5));
  const [profiles, news, boards] = await Promise.all([
    runSourceNow(stack, 'company-profiles'),
    runSourceNow(stack, 'news'),
    runSourceNow(stack, 'job-boards'),
  ]);
  await waitForEveryLeadDelivered(flow, { timeoutMs: 180_000, logAs: 'hostile-documents' });
  delay.disable();
  note(
    'hostile-documents',
    `event-loop delay while reading: max ${ms(delay.max)} ms, p99 ${ms(delay.percentile(99))} ms`,
  );
  await flow.receiver.close();

  // Each document is its own item's problem.
  const [hostileSite] = await stack.db.query(
    `SELECT outcome, last_problem FROM company_sites WHERE company_id = 'hostile'`,
  );
  expect(hostileSite).toEqual({
    outcome: 'problem',
    last_problem: 'https://hostile-site.com/: the page nests elements more than 512 deep: not read',
  });
  expect(profiles.lastError).toBe(
    'company "hostile" (hostile-site.com): https://hostile-site.com/: the page nests elements more than 512 deep: not read',
  );
  expect(
    await stack.db.query(`SELECT url, last_error FROM company_feeds WHERE company_id = 'hostile' ORDER BY url`),
  ).toEqual([
    {
      url: 'https://hostile-site.com/bomb.xml',
      last_error:
        'feed https://hostile-site.com/bomb.xml of company "hostile": the document has more than 50,000 XML elements: not read',
    },
    {
      url: 'https://hostile-site.com/feed.xml',
      last_error:
        'feed https://hostile-site.com/feed.xml of company "hostile": the answer is larger than 5000000 bytes',
    },
  ]);
  expect(news.lastError).toContain('the document has more than 50,000 XML elements: not read');
  expect(news.lastError).toContain('the answer is larger than 5000000 bytes');
  expect(
    await stack.db.query(`SELECT last_error FROM company_job_boards WHERE ats = 'greenhouse' AND token = 'hostile'`),
  ).toEqual([{ last_error: 'Greenhouse board "hostile": the document nests JSON more than 64 deep: not read' }]);
  expect(boards.lastError).toBe('Greenhouse board "hostile": the document nests JSON more than 64 deep: not read');

  // The page within the limits was read, in a thread: the event loop turned while it was.
  const [slowSite] = await stack.db.query(`SELECT homepage_title FROM companies WHERE id = 'slow'`);
  expect(slowSite).toEqual({ homepage_title: 'Slow Site' });
  const slowRead = reads.find((r) => (r.answer as { title?: string }).title === 'Slow Site');
  expect(slowRead?.ticks).toBeGreaterThan(0);
  // The 19 MB feed never reached a parser: its download cap stopped it.
  expect(reads.map((r) => r.kind).sort()).toEqual(['board', 'feed', 'sitePage', 'sitePage']);

  // The worker lives on and still polls.
  expect(stack.worker?.worker.getState()).toBe('RUNNING');
});
