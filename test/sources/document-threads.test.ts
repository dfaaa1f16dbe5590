import { DocumentThreads } from '../../src/sources/kit/document-threads';
import { readSitePage, type SitePage } from '../../src/sources/kit/site-page';
import { readArticlePage } from '../../src/sources/news/article-page';
import { parseFeed } from '../../src/sources/news/feeds';
import { documentOf } from '../../src/sources/job-boards/platforms';
import { parseFormD } from '../../src/sources/sec-form-d/edgar';
import { parseTedSearch } from '../../src/sources/ted/search';
import { jsonShapeProblem, xmlShapeProblem } from '../../src/sources/kit/document-limits';
import { greenhouseBoard, greenhouseJob } from './board-fixtures';
import { homepage } from './site-fixtures';
import { rssFeed } from './news-fixtures';
import { hostile } from './hostile-fixtures';

const threads: DocumentThreads[] = [];
const pool = (settings: { threads?: number; heapMb?: number; budgetMs?: number } = {}) => {
  const made = new DocumentThreads({ threads: 1, heapMb: 256, budgetMs: 60_000, ...settings });
  threads.push(made);
  return made;
};
afterAll(() => Promise.all(threads.map((made) => made.close())));

describe('documents past their limits are problems, found before the parser builds anything', () => {
  test('a page of 320,000 unclosed <span> is a problem at the 513th; a page is read up to its first MB', () => {
    expect(readSitePage(hostile.quadraticPage(), 'https://unclosed.example/')).toEqual({
      problem: 'the page nests elements more than 512 deep: not read',
    });
    expect(readArticlePage(hostile.quadraticPage())).toEqual({
      problem: 'the page nests elements more than 512 deep: not read',
    });
    const padded = homepage({ title: 'Padded' }).replace('</body>', `${'<p>filler</p>'.repeat(100_000)}</body>`);
    const page = readSitePage(`${padded}<a href="/after-the-cut">late</a>`, 'https://padded.example/') as SitePage;
    expect(page.title).toBe('Padded');
    expect(page.anchors.map((a) => a.url)).not.toContain('https://padded.example/after-the-cut');
  });

  test('a page keeps its first 2,000 links of each kind', () => {
    const links = Array.from({ length: 3000 }, (_, i) => `<a href="/p${i}">${i}</a><script src="/s${i}.js"></script>`);
    const page = readSitePage(`<html><body>${links.join('')}</body></html>`, 'https://links.example/') as SitePage;
    expect(page.anchors).toHaveLength(2000);
    expect(page.scriptUrls).toHaveLength(2000);
    expect(page.anchors[1999]).toEqual({ url: 'https://links.example/p1999', text: '1999' });
  });

  test('an element bomb in a feed: past 4 MB, or past 50,000 elements, not parsed', () => {
    expect(parseFeed(hostile.elementBomb(4_900_000), 'https://bomb.example/feed')).toEqual({
      problem: 'the document is larger than 4 MB (18.7 MB): not read',
    });
    expect(parseFeed(hostile.elementBomb(60_000), 'https://bomb.example/feed')).toEqual({
      problem: 'the document has more than 50,000 XML elements: not read',
    });
    // Markup inside CDATA (a feed's article text) is not counted; a real feed reads as before.
    const cdata = `<![CDATA[${'<p>x</p>'.repeat(60_000)}]]>`;
    const feed = rssFeed('news.example', [
      { title: 'One', link: 'https://news.example/one', description: 'x', pubDate: new Date() },
    ]).replace('<language>en-us</language>', `<copyright>${cdata}</copyright>`);
    expect(parseFeed(feed, 'https://news.example/feed')).toMatchObject({
      format: 'rss',
      entries: [{ url: 'https://news.example/one' }],
    });
  });

  test('nested JSON from a board or an API: its depth and its arrays and objects are counted before JSON.parse', () => {
    expect(documentOf(hostile.nestedJson(3_000_000))).toEqual({
      problem: 'the document nests JSON more than 64 deep: not read',
    });
    expect(documentOf(`{"jobs":[${Array(300_000).fill('[]').join(',')}]}`)).toEqual({
      problem: 'the document has more than 250,000 JSON arrays and objects: not read',
    });
    expect(parseTedSearch(`{"notices":${'['.repeat(100)}${']'.repeat(100)}}`)).toEqual({
      problem: 'the document nests JSON more than 64 deep: not read',
    });
    // Brackets inside strings are text, escaped quotes included.
    expect(
      jsonShapeProblem(JSON.stringify({ a: `"${'['.repeat(1000)}` }), { maxChars: 1e6, maxDepth: 2, maxContainers: 5 }),
    ).toBe(null);
    const board = JSON.stringify(greenhouseBoard([greenhouseJob(1, 'Engineer', 'Berlin', new Date().toISOString())]));
    expect(documentOf(board)).toEqual({ document: JSON.parse(board) });
  });

  test('an XML element count skips comments and CDATA; a Form D past 2 MB is a problem', () => {
    const limits = { maxChars: 1e6, maxElements: 3 };
    expect(xmlShapeProblem('<a><b/><!-- <c/><d/><e/> --><![CDATA[<f/><g/>]]><h/></a>', limits)).toBe(null);
    expect(xmlShapeProblem('<a><b/><c/><d/></a>', limits)).toBe('the document has more than 3 XML elements: not read');
    expect(parseFormD(`<edgarSubmission>${' '.repeat(3 * 1024 * 1024)}</edgarSubmission>`)).toEqual({
      problem: 'the document is larger than 2 MB (3 MB): not read',
    });
  });
});

describe('documents are read in worker threads, within a heap and a time budget', () => {
  test('a thread answers what the reader answers', async () => {
    const documents = pool();
    const html = homepage({ title: 'Acme — tools', description: 'Tools for builders' });
    expect(await documents.read('sitePage', html, 'https://acme.example/')).toEqual(
      readSitePage(html, 'https://acme.example/'),
    );
    expect(await documents.read('sitePage', hostile.quadraticPage(), 'https://unclosed.example/')).toEqual({
      problem: 'the page nests elements more than 512 deep: not read',
    });
    const board = JSON.stringify(greenhouseBoard([greenhouseJob(7, 'Engineer', 'Berlin', '2026-11-20T10:00:00Z')]));
    expect(await documents.read('board', 'greenhouse', 'acme', board)).toMatchObject({
      postings: [{ jobId: '7', title: 'Engineer', location: 'Berlin' }],
    });
    expect(await documents.read('board', 'greenhouse', 'acme', hostile.nestedJson(100))).toEqual({
      problem: 'the document nests JSON more than 64 deep: not read',
    });
  });

  test('the event loop goes on while a slow page is read', async () => {
    const documents = pool();
    // Started once, so only the page's own reading is watched.
    await documents.read('sitePage', '<html></html>', 'https://warm.example/');
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 1);
    const page = await documents.read('sitePage', hostile.slowPage('Slow'), 'https://slow.example/');
    clearInterval(ticking);
    expect(page).toMatchObject({ title: 'Slow' });
    expect(ticks).toBeGreaterThan(0);
  });

  test('a document needing more than the thread’s heap is its problem; the next one gets a new thread', async () => {
    const documents = pool({ heapMb: 16 });
    const jobs = Array(200_000).fill('{"id":"abc","title":"t","jobUrl":"u"}').join(',');
    expect(await documents.read('board', 'ashby', 'acme', `{"jobs":[${jobs}]}`)).toEqual({
      problem: 'reading it needed more than 16 MB of memory: stopped',
    });
    expect(await documents.read('sitePage', homepage({ title: 'After' }), 'https://after.example/')).toMatchObject({
      title: 'After',
    });
  });

  test('a document read longer than its budget is its problem, and its thread is ended', async () => {
    // The budget counts from the document's hand-over to a started thread; the page takes far longer than 20 ms.
    const documents = pool({ budgetMs: 20 });
    const answer = await documents.read('sitePage', hostile.slowPage('Too slow'), 'https://slow.example/');
    expect(answer).toEqual({ problem: 'reading it took longer than 0.02 s: stopped' });
    expect(documents.running).toBe(0);
  });
});
