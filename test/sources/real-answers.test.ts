import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { client, createSignal, settled } from '../leads/fixtures';
import { startVendor, type VendorAnswer, type VendorServer } from './vendors';
import { articlePage } from './news-fixtures';
import {
  ashbyBoard,
  ashbyJob,
  leverPosting,
  recruiteeOffer,
  recruiteeOffers,
  smartRecruitersDetail,
  smartRecruitersPage,
  smartRecruitersPosting,
  workableAccount,
  workableJob,
} from './board-fixtures';
import { currentFeed, feedPath, formDXml, primaryDocPath, xmlAnswer, type FeedEntry } from './sec-fixtures';
import { runSourceNow } from './source-runs';

/**
 * Answers as the vendors really send them, beyond the happy path of their documentation (issue
 * 33, "real answers read right"): other charsets and languages, FeedBurner's redirects, GDELT's
 * invalid escapes, Lever's `lists`, a posting's workplace, places and pay, Form D's co-issuers and
 * organisations in its name fields, a Companies House search item without a title.
 */

let stack: Stack;
let web: VendorServer;
let gdelt: VendorServer;
let boards: VendorServer;
let recruitee: VendorServer;
let sec: VendorServer;
let companiesHouse: VendorServer;

const SITES = [
  'mueller-praezision.de',
  'ferrolabs.com',
  'gammarobotics.com',
  'www.fieldnews.com',
  'feeds.feedburner.com',
  'feedproxy.google.com',
];
const DAY_MS = 86_400_000;
/** A whole second, as feeds state times. */
const daysAgo = (days: number) => new Date(Math.floor((Date.now() - days * DAY_MS) / 1000) * 1000);

beforeAll(async () => {
  [web, gdelt, boards, recruitee, sec, companiesHouse] = await Promise.all(
    Array.from({ length: 6 }, () => startVendor()),
  );
  stack = await startStack({
    env: {
      SOURCES_HOST_MAP: [
        ...SITES.map((site) => `${site}=${web.origin}`),
        `api.gdeltproject.org=${gdelt.origin}`,
        `api.lever.co=${boards.origin}`,
        `api.ashbyhq.com=${boards.origin}`,
        `apply.workable.com=${boards.origin}`,
        `api.smartrecruiters.com=${boards.origin}`,
        `rho.recruitee.com=${recruitee.origin}`,
        `www.sec.gov=${sec.origin}`,
        `api.company-information.service.gov.uk=${companiesHouse.origin}`,
      ].join(','),
      SOURCES_HOST_INTERVAL_MS: '20',
      SOURCES_TIMEOUT_MS: '20000',
      NEWS_GDELT_INTERVAL_MS: '1000',
      SIGNAL_EVALUATION_INTERVAL: '1h',
      JOB_BOARDS_TICK: '1h',
      SEC_FORM_D_INTERVAL: '24h',
      COMPANIES_HOUSE_API_KEY: 'rest-key-1',
      COMPANIES_HOUSE_INTERVAL: '24h',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  const companies = [
    ['mueller', 'Müller Präzision', 'mueller-praezision.de'],
    ['ferro', 'Ferro Labs', 'ferrolabs.com'],
    ['gamma', 'Gamma Robotics', 'gammarobotics.com'],
    ['lev', 'Lev Systems', 'levsystems.example'],
    ['ash', 'Ash Health', 'ashhealth.example'],
    ['rho', 'Rho Logistics', 'rholog.example'],
    ['wok', 'Wok Payments', 'wokpay.example'],
    ['smart', 'Smart Retail', 'smartretail.example'],
  ].map(([id, name, domain]) => ({ kind: 'company', id, name, domain }));
  expect((await stack.services.ingestion.ingest(companies)).accepted).toBe(companies.length);
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([web, gdelt, boards, recruitee, sec, companiesHouse].map((vendor) => vendor?.close()));
});

/** Windows-1252 bytes of `text`: Latin-1 plus the typographic marks browsers read at 0x80–0x9f. */
function windows1252(text: string): Buffer {
  const marks: Record<string, number> = { '€': 0x80, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97 };
  return Buffer.from([...text].map((c) => marks[c] ?? c.charCodeAt(0)));
}
const bytes = (body: Buffer, contentType: string): VendorAnswer => ({
  status: 200,
  headers: { 'content-type': contentType },
  body,
});

/** An instant as a German feed's RFC 822 date, in Central European Time (+0100). */
function germanDate(at: Date): string {
  const local = new Date(at.getTime() + 3_600_000);
  const days = ['So', 'Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa'];
  const months = ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'];
  const two = (n: number) => String(n).padStart(2, '0');
  return `${days[local.getUTCDay()]}, ${two(local.getUTCDate())} ${months[local.getUTCMonth()]} ${local.getUTCFullYear()} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())} +0100`;
}

/** An instant as a French feed's RFC 822 date, in UTC. */
function frenchDate(at: Date): string {
  const days = ['dim.', 'lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.'];
  const months = ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'];
  const two = (n: number) => String(n).padStart(2, '0');
  return `${days[at.getUTCDay()]} ${at.getUTCDate()} ${months[at.getUTCMonth()]} ${at.getUTCFullYear()} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())} GMT`;
}

const newsEvents = (companyId: string) =>
  stack.db.query(`SELECT occurred_at, data FROM events WHERE company_id = $1 ORDER BY occurred_at`, [
    companyId,
  ]) as Promise<{ occurred_at: Date; data: Record<string, string> }[]>;

test('a feed and pages in ISO-8859-1 and Windows-1252, declared by the XML declaration, a <meta charset> or the Content-Type header, read as their authors wrote them; German feed dates are read', async () => {
  const zurich = daysAgo(40);
  const series = daysAgo(12);
  await stack.services.companyFeeds.remember('mueller', ['https://mueller-praezision.de/feed.xml']);
  // The feed declares its charset only in its XML declaration; its dates are German.
  web.answer(
    '/feed.xml',
    bytes(
      Buffer.from(
        `<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0">
  <channel>
    <title>Müller Präzision – Presse</title>
    <link>https://mueller-praezision.de/</link>
    <description>Neuigkeiten</description>
    <language>de-de</language>
    <item>
      <title>Müller Präzision opens new office in Zürich</title>
      <link>https://mueller-praezision.de/presse/zuerich</link>
      <description>&lt;p&gt;Müller Präzision eröffnet sein erstes Büro in der Schweiz.&lt;/p&gt;</description>
      <pubDate>${germanDate(zurich)}</pubDate>
      <guid isPermaLink="false">mp-2026-17</guid>
    </item>
    <item>
      <title>Müller Präzision raises Series A to grow in Österreich</title>
      <link>https://mueller-praezision.de/presse/series-a</link>
      <description>Finanzierungsrunde</description>
      <pubDate>${germanDate(series)}</pubDate>
    </item>
  </channel>
</rss>`,
        'latin1',
      ),
      'application/rss+xml',
    ),
  );
  // A page saying its charset in a <meta> only, served as text/html without one.
  web.answer(
    '/presse/zuerich',
    bytes(
      windows1252(
        articlePage({
          site: 'Müller Präzision',
          headline: 'Müller Präzision opens new office in Zürich – its first in Switzerland',
          paragraphs: ['Müller Präzision is opening its first office in Zürich, with “twelve” engineers.'],
        }).replace('<meta charset="utf-8">', '<meta charset="windows-1252">'),
      ),
      'text/html',
    ),
  );
  // A page whose header names the charset, and no <meta> at all.
  web.answer(
    '/presse/series-a',
    bytes(
      Buffer.from(
        articlePage({
          site: 'Müller Präzision',
          headline: 'Müller Präzision raises €12M Series A',
          paragraphs: ['Müller Präzision has raised a Series A round led by Größer Ventures.'],
        })
          .replace('<meta charset="utf-8">', '')
          .replace('€', 'EUR '),
        'latin1',
      ),
      'text/html; charset=ISO-8859-1',
    ),
  );

  const status = await runSourceNow(stack, 'news');

  expect(status.lastError).toBeNull();
  const events = await newsEvents('mueller');
  expect(events).toEqual([
    {
      occurred_at: zurich,
      data: expect.objectContaining({
        news_event_type: 'expansion',
        news_headline: 'Müller Präzision opens new office in Zürich',
        news_url: 'https://mueller-praezision.de/presse/zuerich',
        news_title: 'Müller Präzision opens new office in Zürich – its first in Switzerland | Müller Präzision',
        news_event_date: zurich.toISOString().slice(0, 10),
      }),
    },
    {
      occurred_at: series,
      data: expect.objectContaining({
        news_event_type: 'funding',
        news_headline: 'Müller Präzision raises Series A to grow in Österreich',
        news_title: 'Müller Präzision raises EUR 12M Series A | Müller Präzision',
        news_event_date: series.toISOString().slice(0, 10),
      }),
    },
  ]);
});

test("FeedBurner's origLink is the item's URL in RSS and Atom, not its redirect; French dates and an Atom entry dated only by dc:date are read", async () => {
  const seriesA = daysAgo(20);
  const berlin = daysAgo(6);
  await stack.services.companyFeeds.remember('ferro', [
    'https://feeds.feedburner.com/ferrolabs',
    'https://feeds.feedburner.com/ferrolabs-blog',
  ]);
  web.answer('/ferrolabs', {
    text: `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0">
  <channel>
    <title>Ferro Labs — Actualités</title>
    <link>https://ferrolabs.com/</link>
    <description>Communiqués</description>
    <language>fr-fr</language>
    <item>
      <title>Ferro Labs raises $18M Series A</title>
      <link>https://feeds.feedburner.com/~r/ferrolabs/~3/kQ2x7Yp0c1E/</link>
      <description>Ferro Labs lève 18 millions de dollars.</description>
      <pubDate>${frenchDate(seriesA)}</pubDate>
      <guid isPermaLink="false">https://ferrolabs.com/?p=4411</guid>
      <feedburner:origLink>https://ferrolabs.com/news/series-a</feedburner:origLink>
    </item>
  </channel>
</rss>`,
    contentType: 'text/xml; charset=UTF-8',
  });
  web.answer('/ferrolabs-blog', {
    text: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0">
  <title>Ferro Labs Blog</title>
  <id>tag:ferrolabs.com,2026:blog</id>
  <link rel="self" href="https://feeds.feedburner.com/ferrolabs-blog"/>
  <entry>
    <title>Ferro Labs opens new office in Berlin</title>
    <id>tag:ferrolabs.com,2026:blog/berlin</id>
    <link rel="replies" type="text/html" href="https://ferrolabs.com/blog/berlin#comments"/>
    <link rel="alternate" type="text/html" href="https://feedproxy.google.com/~r/ferrolabs-blog/~3/Zx81aQ/"/>
    <dc:date>${berlin.toISOString().replace('.000Z', '+00:00')}</dc:date>
    <summary>Our first office in Germany.</summary>
    <feedburner:origLink>https://ferrolabs.com/blog/berlin</feedburner:origLink>
  </entry>
</feed>`,
    contentType: 'application/atom+xml',
  });
  // FeedBurner's redirects lead nowhere now (the service is gone): only the articles' own pages answer.
  web.answer(
    '/news/series-a',
    bytes(
      Buffer.from(
        articlePage({
          site: 'Ferro Labs',
          headline: 'Ferro Labs raises $18M Series A',
          paragraphs: ['Ferro Labs has raised $18 million in a Series A round.'],
        }),
      ),
      'text/html; charset=utf-8',
    ),
  );
  web.answer('/blog/berlin', {
    text: articlePage({
      site: 'Ferro Labs',
      headline: 'Ferro Labs opens new office in Berlin',
      paragraphs: ['Ferro Labs is opening its first office in Germany, in Berlin.'],
    }),
    contentType: 'text/html; charset=utf-8',
  });

  const status = await runSourceNow(stack, 'news');

  expect(status.lastError).toBeNull();
  expect(web.requests.filter((r) => r.path.startsWith('/~r/'))).toEqual([]);
  expect(await newsEvents('ferro')).toEqual([
    {
      occurred_at: seriesA,
      data: expect.objectContaining({ news_event_type: 'funding', news_url: 'https://ferrolabs.com/news/series-a' }),
    },
    {
      occurred_at: berlin,
      data: expect.objectContaining({ news_event_type: 'expansion', news_url: 'https://ferrolabs.com/blog/berlin' }),
    },
  ]);
});

test("a GDELT answer with an invalid JSON escape in one article's title loses that article, not the search", async () => {
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const watchlist = await createSignal(api, 'account-watchlist', {
    name: 'Gamma news',
    status: 'active',
    config: { companies: ['gammarobotics.com'], sources: { company_news: { enabled: true } } },
  });
  await settled(stack, watchlist.id);
  const seen = (at: Date) =>
    at
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  const good = daysAgo(2);
  // GDELT writes a title's apostrophe as \' (not a JSON escape); the other article is well formed.
  const body = `{"articles": [ {"url": "https://www.fieldnews.com/2026/11/gamma-robotics-ceo-interview","url_mobile": "","title": "Gamma Robotics\\' CEO on the year ahead","seendate": "${seen(daysAgo(1))}","socialimage": "","domain": "fieldnews.com","language": "English","sourcecountry": "United States"}, {"url": "https://www.fieldnews.com/2026/11/gamma-robotics-opens-austin-office","url_mobile": "","title": "Gamma Robotics opens new office in Austin","seendate": "${seen(good)}","socialimage": "","domain": "fieldnews.com","language": "English","sourcecountry": "United States"} ] }`;
  gdelt.answer(
    `/api/v2/doc/doc?${new URLSearchParams({ query: '"Gamma Robotics" sourcelang:english' }).toString()}&*`,
    bytes(Buffer.from(body), 'application/json; charset=utf-8'),
  );
  web.answer('/2026/11/gamma-robotics-opens-austin-office', {
    text: articlePage({
      site: 'Field News',
      headline: 'Gamma Robotics opens new office in Austin',
      paragraphs: ['Gamma Robotics is opening a new office in Austin, Texas.'],
    }),
    contentType: 'text/html; charset=utf-8',
  });

  const status = await runSourceNow(stack, 'news');

  expect(status.lastError).toBeNull();
  expect(await newsEvents('gamma')).toEqual([
    {
      occurred_at: good,
      data: expect.objectContaining({
        news_event_type: 'expansion',
        news_url: 'https://www.fieldnews.com/2026/11/gamma-robotics-opens-austin-office',
      }),
    },
  ]);
  // The article with the broken title was not read at all.
  expect(web.requests.filter((r) => r.path.includes('ceo-interview'))).toEqual([]);
});

async function linkBoard(companyId: string, ats: string, token: string) {
  const answer = await call(`${stack.url}/admin/v1/companies/${companyId}/job-board`, {
    method: 'PUT',
    token: TEST_ADMIN_TOKEN,
    body: { ats, token },
  });
  expect(answer.status).toBe(200);
}

const jobOffer = async (companyId: string) =>
  (
    (await stack.db.query(`SELECT data FROM events WHERE company_id = $1 AND type = 'job_offers' ORDER BY id`, [
      companyId,
    ])) as { data: Record<string, string> }[]
  ).map((row) => row.data);

test("Lever's lists belong to the description; each board's workplace, other places and pay range are kept, and the location says them as the posting does", async () => {
  boards.answer('/v0/postings/lev?mode=json', {
    json: [
      {
        ...leverPosting('8d1c7e52-6a4f-4f3e-9a53-0c2b51d0a001', 'Platform Engineer', 'Berlin'),
        categories: {
          location: 'Berlin',
          allLocations: ['Berlin', 'London'],
          commitment: 'Full-time',
          team: 'Platform',
          department: 'Engineering',
        },
        description: '<div>We run our platform on <b>Kubernetes</b>.</div>',
        descriptionPlain: 'We run our platform on Kubernetes.',
        lists: [
          { text: 'What you will need', content: '<li>5+ years of Go</li><li>Terraform &amp; AWS</li>' },
          { text: 'What we offer', content: '<li>30 days of holiday</li>' },
        ],
        additional: '<div>We sponsor visas.</div>',
        additionalPlain: 'We sponsor visas.',
        workplaceType: 'remote',
        salaryRange: { currency: 'EUR', interval: 'per-year-salary', min: 70000, max: 90000 },
        salaryDescription: '<div>Plus equity.</div>',
        salaryDescriptionPlain: 'Plus equity.',
      },
    ],
  });
  boards.answer('/posting-api/job-board/ash?includeCompensation=true', {
    json: ashbyBoard([
      {
        ...ashbyJob('5f0f8a3c-0000-4000-8000-00000000a5b1', 'Clinical Operations Lead', 'Amsterdam'),
        secondaryLocations: [{ location: 'Rotterdam', address: { postalAddress: { addressLocality: 'Rotterdam' } } }],
        workplaceType: 'Hybrid',
        shouldDisplayCompensationOnJobPostings: true,
        compensation: {
          compensationTierSummary: '€65K – €80K • Offers Equity',
          scrapeableCompensationSalarySummary: '€65K - €80K',
          compensationTiers: [],
          summaryComponents: [
            { compensationType: 'Salary', interval: '1 YEAR', currencyCode: 'EUR', minValue: 65000, maxValue: 80000 },
            {
              compensationType: 'EquityPercentage',
              interval: 'NONE',
              currencyCode: null,
              minValue: 0.1,
              maxValue: 0.2,
            },
          ],
        },
      },
    ]),
  });
  recruitee.answer('/api/offers/', {
    json: recruiteeOffers([
      {
        ...recruiteeOffer(3301, 'Fleet Planner', 'Utrecht'),
        location: 'Utrecht, Netherlands; Antwerp, Belgium',
        locations: [
          { id: 1, name: 'Utrecht, Netherlands', city: 'Utrecht', country: 'Netherlands' },
          { id: 2, name: 'Antwerp, Belgium', city: 'Antwerp', country: 'Belgium' },
        ],
        remote: true,
        hybrid: false,
        on_site: false,
        salary: { min: '3800.00', max: '4600.00', period: 'month', currency: 'EUR' },
      },
    ]),
  });
  boards.answer('/api/v1/widget/accounts/wok?details=true', {
    json: workableAccount([
      {
        ...workableJob('9F3A1B2C7D', 'Payments Engineer', 'Lisbon'),
        country: 'Portugal',
        state: 'Lisbon',
        telecommuting: true,
        locations: [
          { country: 'Portugal', countryCode: 'PT', city: 'Lisbon', region: 'Lisbon', hidden: false },
          { country: 'Spain', countryCode: 'ES', city: 'Madrid', region: 'Madrid', hidden: false },
          { country: 'Spain', countryCode: 'ES', city: 'Bilbao', region: 'Basque Country', hidden: true },
        ],
      },
    ]),
  });
  const sr = {
    ...smartRecruitersPosting('744000098765432', 'Store Operations Analyst', 'Barcelona'),
    location: {
      city: 'Barcelona',
      region: 'Catalonia',
      country: 'es',
      remote: false,
      hybrid: true,
      fullLocation: 'Barcelona, Catalonia, Spain',
      latitude: '41.38',
      longitude: '2.17',
    },
  };
  boards.answer('/v1/companies/smart/postings?limit=100&offset=0', { json: smartRecruitersPage(0, 1, [sr]) });
  boards.answer(`/v1/companies/smart/postings/${sr.id}`, { json: smartRecruitersDetail(sr) });
  await linkBoard('lev', 'lever', 'lev');
  await linkBoard('ash', 'ashby', 'ash');
  await linkBoard('rho', 'recruitee', 'rho');
  await linkBoard('wok', 'workable', 'wok');
  await linkBoard('smart', 'smartrecruiters', 'smart');

  const status = await runSourceNow(stack, 'job-boards');

  expect(status.lastError).toBeNull();
  expect(await jobOffer('lev')).toEqual([
    expect.objectContaining({
      job_offer_location: 'Remote, Berlin or London',
      job_offer_description:
        'Pay: EUR 70,000–90,000 a year\n\nWe run our platform on Kubernetes.\n\n' +
        'What you will need\n- 5+ years of Go\n- Terraform & AWS\n\nWhat we offer\n- 30 days of holiday\n\nWe sponsor visas.',
    }),
  ]);
  expect(await jobOffer('ash')).toEqual([
    expect.objectContaining({
      job_offer_location: 'Hybrid, Amsterdam or Rotterdam',
      job_offer_description: 'Pay: EUR 65,000–80,000 a year\n\nLead our customer success team.',
    }),
  ]);
  expect(await jobOffer('rho')).toEqual([
    expect.objectContaining({
      job_offer_location: 'Remote, Utrecht, Netherlands or Antwerp, Belgium',
      job_offer_description:
        'Pay: EUR 3,800–4,600 a month\n\nHelp our customers get the most out of the product.\n\n- Dutch and English',
    }),
  ]);
  expect(await jobOffer('wok')).toEqual([
    expect.objectContaining({ job_offer_location: 'Remote, Lisbon, Lisbon, Portugal or Madrid, Madrid, Spain' }),
  ]);
  expect(await jobOffer('smart')).toEqual([
    expect.objectContaining({ job_offer_location: 'Hybrid, Barcelona, Catalonia, Spain' }),
  ]);
});

const CO_FUND = { cik: '0001900501', name: 'Northwind Growth Fund II, L.P.', city: 'DOVER', state: 'DE' };

test('Form D: the date of first sale, the amount remaining, the investors and the exemptions are kept; co-issuers are companies; organisations in the name fields are not people', async () => {
  const accession = '0001900500-26-000007';
  const entry: FeedEntry = {
    form: 'D',
    accession,
    filedOn: '2026-11-24',
    company: 'Northwind Robotics Holdings, Inc.',
    cik: '0001900500',
  };
  sec.answer(feedPath(0), xmlAnswer(currentFeed([entry]), 'application/atom+xml'));
  sec.answer(
    primaryDocPath(entry.cik, accession),
    xmlAnswer(
      formDXml({
        cik: entry.cik,
        name: entry.company,
        city: 'AUSTIN',
        state: 'TX',
        offering: '12000000',
        sold: '7500000',
        firstSale: '2026-10-30',
        investors: 23,
        exemptions: ['06b', '3C', '3C.1'],
        coIssuers: [CO_FUND, { cik: entry.cik, name: entry.company, city: 'AUSTIN', state: 'TX' }],
        people: [
          { first: 'Maria', last: 'Okafor', roles: ['Executive Officer', 'Director'], clarification: 'CEO' },
          { first: '-', last: 'Northwind Capital Management, LLC', roles: ['Executive Officer'] },
          { first: 'Northwind', last: 'GP Holdings Ltd.', roles: ['Director'] },
          { first: 'N/A', last: 'Harbor Lane Partners', roles: ['Promoter', 'Director'] },
        ],
      }),
    ),
  );

  const status = await runSourceNow(stack, 'sec-form-d');

  expect(status.lastError).toBeNull();
  const issuers = await stack.db.query(
    `SELECT i.cik, c.name FROM sec_issuers i JOIN companies c ON c.id = i.company_id ORDER BY i.cik`,
  );
  expect(issuers).toEqual([
    { cik: entry.cik, name: 'Northwind Robotics Holdings, Inc.' },
    { cik: CO_FUND.cik, name: 'Northwind Growth Fund II, L.P.' },
  ]);
  const [issuer] = await stack.db.query(`SELECT company_id FROM sec_issuers WHERE cik = $1`, [entry.cik]);
  expect(
    await stack.db.query(`SELECT first_name, last_name, title FROM people WHERE company_id = $1`, [issuer.company_id]),
  ).toEqual([{ first_name: 'Maria', last_name: 'Okafor', title: 'CEO' }]);
  expect(
    await stack.db.query(
      `SELECT status, to_char(first_sale_on, 'YYYY-MM-DD') AS first_sale_on, amount_remaining_usd::float AS remaining,
              amount_remaining_indefinite AS indefinite, investors, exemptions, co_issuer_ciks
       FROM sec_form_d_filings WHERE accession = $1`,
      [accession],
    ),
  ).toEqual([
    {
      status: 'ingested',
      first_sale_on: '2026-10-30',
      remaining: 4_500_000,
      indefinite: false,
      investors: 23,
      exemptions: ['06b', '3C', '3C.1'],
      co_issuer_ciks: [CO_FUND.cik],
    },
  ]);
});

test('a Companies House search item with a null title is skipped alone; the rest of its page is read', async () => {
  await stack.services.ingestion.ingest([
    { kind: 'company', id: 'co-plover', name: 'Plover Analytics', domain: 'plover.example', hqCountryCode: 'GB' },
  ]);
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const watchlist = await createSignal(api, 'account-watchlist', {
    name: 'Plover',
    status: 'active',
    config: { companies: ['plover.example'] },
  });
  await settled(stack, watchlist.id);
  companiesHouse.answer('/search/companies?q=Plover%20Analytics&items_per_page=20', {
    json: {
      kind: 'search#companies',
      total_results: 2,
      items_per_page: 20,
      start_index: 0,
      items: [
        { kind: 'searchresults#company', title: null, company_number: '09000001', company_status: 'active' },
        {
          kind: 'searchresults#company',
          title: 'PLOVER ANALYTICS LIMITED',
          company_number: '09000002',
          company_status: 'active',
        },
      ],
    },
  });

  await runSourceNow(stack, 'companies-house');

  expect(
    await stack.db.query(`SELECT company_number, matched_by FROM companies_house_companies WHERE company_id = $1`, [
      'co-plover',
    ]),
  ).toEqual([{ company_number: '09000002', matched_by: 'search' }]);
});
