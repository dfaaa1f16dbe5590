import { loadConfig } from '../../src/config';
import { classifyNews } from '../../src/sources/news/news-kinds';
import { articleUrlKey, namesCompany, newsEventId } from '../../src/sources/news/news-mentions';
import { coreNameOf } from '../../src/catalogue/identifiers';
import { parseFeed } from '../../src/sources/news/feeds';
import { gdeltSearchUrl, parseGdeltArtlist } from '../../src/sources/news/gdelt';
import { readArticlePage } from '../../src/sources/news/article-page';
import { articlePage, atomFeed, gdeltArtlist, rssFeed } from './news-fixtures';

const kindOf = (headline: string, lead = '') => classifyNews(headline, lead)?.kind ?? null;

describe('news kinds from realistic headlines', () => {
  test.each([
    ['Acme Robotics raises $45M Series B to scale warehouse automation', 'funding'],
    ['Acme secures €12 million in seed funding led by Index Ventures', 'funding'],
    ['Acme closes $30M debt financing from Silicon Valley Bank', 'funding'],
    ['Acme Announces $8.5 Million Series A Round', 'funding'],
    ['Acme to acquire Beta Analytics for $1.2 billion', 'mergers_acquisitions'],
    ['Acme completes acquisition of Gamma Labs', 'mergers_acquisitions'],
    ['Acme Buys Data Startup Delta', 'mergers_acquisitions'],
    ['Acme and Beta agree to merge in all-stock deal', 'mergers_acquisitions'],
    ['Acme appoints Jane Doe as Chief Financial Officer', 'leadership_change'],
    ['Acme names former Salesforce executive its new CRO', 'leadership_change'],
    ['Acme CEO John Smith to step down at year end', 'leadership_change'],
    ['Maria Garcia joins Acme as VP of Engineering', 'leadership_change'],
    ['Acme to lay off 10% of its workforce', 'restructuring'],
    ['Acme cuts 200 jobs as demand slows', 'restructuring'],
    ['Acme files for Chapter 11 bankruptcy protection', 'restructuring'],
    ['Acme to exhibit at Hannover Messe 2027 in Hannover', 'event_participation'],
    ['Visit Acme at booth 4B21 at MWC Barcelona 2027', 'event_participation'],
    ['Acme will showcase its new robot arm at CES 2027 in Las Vegas', 'event_participation'],
    ['Acme opens new office in London to serve European customers', 'expansion'],
    ['Acme expands into Germany with Berlin hub', 'expansion'],
    ['Acme enters the Japanese market', 'expansion'],
    ['Acme relocates headquarters to Austin', 'expansion'],
    ['Acme partners with Microsoft to bring AI to retail', 'contract_partnership'],
    ['Acme wins $12M contract with the Department of Defense', 'contract_partnership'],
    ['Acme selected by NHS England for digital pathology rollout', 'contract_partnership'],
    ['Acme and Beta sign multi-year distribution agreement', 'contract_partnership'],
    ['Acme launches AI assistant for finance teams', 'product_launch'],
    ['Acme unveils next-generation battery platform', 'product_launch'],
    ['Acme announces general availability of Acme Cloud', 'product_launch'],
    ['Acme rolls out new pricing plans', 'product_launch'],
  ])('"%s" is %s', (headline, kind) => {
    expect(kindOf(headline)).toBe(kind);
  });

  test.each([
    'Acme named a Leader in the 2026 Gartner Magic Quadrant for CRM',
    'Acme raises quarterly dividend to $0.45 per share',
    'Acme reports third quarter 2026 results',
    'Acme releases Q3 2026 earnings',
    'How customer acquisition costs are changing SaaS',
    'Acme CEO on why AI agents need guardrails',
    'Acme stock rises 5% after analyst upgrade',
    'Acme acquires 10,000 new customers in Q3',
    'Acme launches investigation into data breach',
    '5 lessons from the Acme marketing team',
  ])('"%s" names no kind', (headline) => {
    expect(kindOf(headline)).toBeNull();
  });

  test('the headline decides before the lead; the lead decides when the headline names nothing', () => {
    expect(kindOf('Acme launches Acme Pay', 'Acme, which raised $40M last year, today launched a new product.')).toBe(
      'product_launch',
    );
    expect(kindOf('A big day for Acme', 'Acme today announced it has raised $20 million in Series A funding.')).toBe(
      'funding',
    );
    expect(kindOf('A big day for Acme', 'Acme shared its view on the market.')).toBeNull();
  });

  test('a trade show gives its name and place, and the label of its kind', () => {
    expect(classifyNews('Acme to exhibit at Hannover Messe 2027 in Hannover', '')).toEqual({
      kind: 'event_participation',
      label: 'Event Participation',
      eventName: 'Hannover Messe 2027',
      eventLocation: 'Hannover',
    });
    expect(classifyNews('Acme will showcase its new robot arm at CES 2027 in Las Vegas', '')).toMatchObject({
      eventName: 'CES 2027',
      eventLocation: 'Las Vegas',
    });
    expect(classifyNews('Acme Raises $45M Series B', '')).toEqual({
      kind: 'funding',
      label: 'Funding',
      eventName: '',
      eventLocation: '',
    });
  });
});

describe('whether an article is about the company', () => {
  const acme = { name: 'Acme Robotics, Inc.', domain: 'acmerobotics.io' };
  test('its name without the legal form, as whole words, case aside; or its domain', () => {
    expect(coreNameOf('Acme Robotics, Inc.')).toBe('Acme Robotics');
    expect(coreNameOf('Beta GmbH')).toBe('Beta');
    expect(coreNameOf('Inc')).toBe('Inc');
    expect(namesCompany('Shares of ACME ROBOTICS rose on Monday.', acme)).toBe(true);
    expect(namesCompany('Read more at acmerobotics.io/blog', acme)).toBe(true);
    expect(namesCompany('Acme Roboticsville hosts a fair.', acme)).toBe(false);
    expect(namesCompany('Acme Corporation, a different company, said so.', acme)).toBe(false);
  });

  test('one key per article however it is linked, and one event id per company and article', () => {
    const key = articleUrlKey('https://www.techwire.example/2026/11/acme-raises?id=7&utm_source=rss#top');
    expect(articleUrlKey('http://techwire.example/2026/11/acme-raises/?utm_medium=feed&id=7')).toBe(key);
    expect(key).toBe('techwire.example/2026/11/acme-raises?id=7');
    expect(articleUrlKey('https://techwire.example/2026/11/acme-raises?id=8')).not.toBe(key);
    expect(newsEventId('acme', key)).toMatch(/^news:[0-9a-f]{64}$/);
    expect(newsEventId('acme', key)).toBe(newsEventId('acme', key));
    expect(newsEventId('beta', key)).not.toBe(newsEventId('acme', key));
  });
});

describe('documents', () => {
  const day = new Date('2026-11-24T09:00:00Z');

  test('an RSS 2.0 feed gives each item with its link, title, plain-text summary and date', () => {
    const xml = rssFeed('acme.com', [
      {
        title: 'Acme & Beta partner',
        link: 'https://acme.com/news/partner',
        description: 'Acme <b>partners</b> with Beta.',
        pubDate: day,
      },
    ]);
    expect(parseFeed(xml, 'https://acme.com/feed.xml')).toEqual({
      format: 'rss',
      entries: [
        {
          url: 'https://acme.com/news/partner',
          title: 'Acme & Beta partner',
          summary: 'Acme partners with Beta.',
          publishedAt: day.toISOString(),
        },
      ],
    });
  });

  test('an Atom feed gives each entry by its alternate link', () => {
    const xml = atomFeed('acme.com', [
      {
        title: 'Acme opens Berlin office',
        href: 'https://acme.com/blog/berlin',
        summary: 'Hello Berlin',
        published: day,
      },
    ]);
    expect(parseFeed(xml, 'https://acme.com/blog/atom.xml')).toEqual({
      format: 'atom',
      entries: [
        {
          url: 'https://acme.com/blog/berlin',
          title: 'Acme opens Berlin office',
          summary: 'Hello Berlin',
          publishedAt: day.toISOString(),
        },
      ],
    });
  });

  test('a document that is not a feed is a problem naming why', () => {
    expect(parseFeed('<rss version="2.0"><channel><item><title>x</title></channel></rss>', 'https://a.b/f')).toEqual({
      problem: expect.stringMatching(/^not well-formed XML: .*\(line \d+\)$/),
    });
    expect(parseFeed('<html><body><p>Hello</p></body></html>', 'https://a.b/f')).toEqual({
      problem: 'not an RSS or Atom feed (its root is <html>)',
    });
  });

  test('the GDELT artlist answer, its empty answer and its plain-text refusal', () => {
    const seen = new Date('2026-11-24T09:30:00Z');
    expect(
      parseGdeltArtlist(
        JSON.stringify(
          gdeltArtlist([{ url: 'https://news.example/a', title: 'Acme raises', seen, domain: 'news.example' }]),
        ),
      ),
    ).toEqual({
      articles: [
        {
          url: 'https://news.example/a',
          title: 'Acme raises',
          seenAt: seen.toISOString(),
          domain: 'news.example',
          language: 'English',
          sourceCountry: 'United States',
        },
      ],
    });
    expect(parseGdeltArtlist('{}')).toEqual({ articles: [] });
    expect(parseGdeltArtlist('The specified phrase is too short.\n')).toEqual({
      problem: 'GDELT refused the query: The specified phrase is too short.',
    });
    expect(parseGdeltArtlist('{"articles": {"url": 1}}')).toEqual({
      problem: 'the document does not have the expected form ("articles" is not a list)',
    });
  });

  test('the GDELT search asks for English articles naming the exact phrase, newest first, in a window', () => {
    const url = new URL(
      gdeltSearchUrl('Acme Robotics', new Date('2026-11-17T10:00:00Z'), new Date('2026-11-24T10:00:00Z'), 50),
    );
    expect(url.origin + url.pathname).toBe('https://api.gdeltproject.org/api/v2/doc/doc');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      query: '"Acme Robotics" sourcelang:english',
      mode: 'artlist',
      format: 'json',
      maxrecords: '50',
      sort: 'datedesc',
      startdatetime: '20261117100000',
      enddatetime: '20261124100000',
    });
  });

  test('an article page: title, headline, lead paragraphs outside the site chrome, visible text, date', () => {
    const page = readArticlePage(
      articlePage({
        site: 'TechWire',
        headline: 'Acme raises $20M',
        paragraphs: ['Acme & friends raised money.', 'More follows.'],
        published: day,
      }),
    );
    expect(page).toMatchObject({
      title: 'Acme raises $20M | TechWire',
      headline: 'Acme raises $20M',
      paragraphs: ['Acme & friends raised money.', 'More follows.'],
      publishedAt: day.toISOString(),
    });
    if ('problem' in page) throw new Error(page.problem);
    expect(page.text).toContain('Subscribe to our newsletter');
    expect(page.text).toContain('© 2026 TechWire');
    expect(page.text).not.toContain('dataLayer');
    expect(page.text).not.toContain('font-family');
  });
});

test('GDELT is never asked more often than every 5 s in production; tests may shorten it', () => {
  const base = {
    DATABASE_URL: 'postgres://x',
    ADMIN_TOKEN: 'a'.repeat(16),
    SECRETS_KEY: Buffer.alloc(32).toString('base64'),
  };
  const production = {
    ...base,
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://leads.example.com',
    SOURCES_CONTACT_EMAIL: 'ops@leads.example.com',
  };
  expect(() => loadConfig({ ...production, NEWS_GDELT_INTERVAL_MS: '1000' })).toThrow(/NEWS_GDELT_INTERVAL_MS/);
  expect(loadConfig(base)).toMatchObject({ NEWS_GDELT_INTERVAL_MS: 5000, NEWS_INTERVAL: 6 * 3_600_000 });
  expect(loadConfig({ ...base, NEWS_GDELT_INTERVAL_MS: '1000' }).NEWS_GDELT_INTERVAL_MS).toBe(1000);
});
