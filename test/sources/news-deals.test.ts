import { startStack, type Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { allLeads, client, createSignal, evaluateNow, settled } from '../leads/fixtures';
import { startVendor, type VendorServer } from './vendors';
import { articlePage, rssFeed } from './news-fixtures';
import { runSourceNow } from './source-runs';
import { readDeal } from '../../src/sources/news/deal-roles';

/**
 * A deal article is also a `mergers_acquisitions` event, the company's role read from where
 * its name stands to the deal's verb (docs/sources/news.md, "Deals").
 */

describe('the role of a company in a deal article', () => {
  test.each([
    ['Heron Capital acquires Osprey Analytics', '', 'Heron Capital', 'Acquisition', 'acquirer'],
    ['Heron Capital acquires Osprey Analytics', '', 'Osprey Analytics', 'Acquisition', 'acquiree'],
    ['Osprey Analytics to be acquired by Heron Capital', '', 'Osprey Analytics', 'Acquisition', 'acquiree'],
    ['Osprey Analytics to be acquired by Heron Capital', '', 'Heron Capital', 'Acquisition', 'acquirer'],
    [
      'Osprey Analytics, acquired last year by Heron Capital, hires a CFO',
      '',
      'Heron Capital',
      'Acquisition',
      'acquirer',
    ],
    ['Osprey Analytics sold to Heron Capital for $40M', '', 'Osprey Analytics', 'Acquisition', 'acquiree'],
    [
      'Heron Capital, the London investor, completes acquisition of UK startup Osprey Analytics',
      '',
      'Osprey Analytics',
      'Acquisition',
      'acquiree',
    ],
    ["Heron Capital's acquisition of Osprey Analytics closes", '', 'Heron Capital', 'Acquisition', 'acquirer'],
    ['Heron Capital to buy Osprey Analytics Ltd', '', 'Osprey Analytics Limited', 'Acquisition', 'acquiree'],
    // The headline names no company: the lead's first sentence naming it decides.
    [
      'Deal news roundup',
      'Heron Capital has agreed to buy Osprey Analytics. It closes in March.',
      'Osprey Analytics',
      'Acquisition',
      'acquiree',
    ],
    // A bystander of someone else's deal, and a merger of equals: no role.
    ['Northwind buys Kite Labs, a Wren Systems partner', '', 'Wren Systems', 'Acquisition', ''],
    ['Wren Systems and Kite Labs agree to merge', '', 'Wren Systems', 'Merger', ''],
    ['Wren Systems merges with Kite Labs', '', 'Kite Labs', 'Merger', ''],
  ])('%s (%s) for %s', (headline, lead, company, dealType, role) => {
    expect(readDeal(headline, lead, company)).toEqual({ dealType, role });
  });
});

describe('deal articles as watchlist deals', () => {
  const SITES = ['heroncapital.com', 'ospreyanalytics.com', 'wrensystems.com'];
  let stack: Stack;
  let web: VendorServer;
  let gdelt: VendorServer;

  beforeAll(async () => {
    [web, gdelt] = await Promise.all([startVendor(), startVendor()]);
    stack = await startStack({
      env: {
        SOURCES_CONTACT_EMAIL: 'sources-ops@leads.example.com',
        SOURCES_HOST_MAP: [
          `api.gdeltproject.org=${gdelt.origin}`,
          ...SITES.map((site) => `${site}=${web.origin}`),
        ].join(','),
        SOURCES_HOST_INTERVAL_MS: '20',
        SIGNAL_EVALUATION_INTERVAL: '1h',
      },
    });
    await stack.services.sources.schedules.ensure(stack.services.sources.names);
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([web, gdelt].map((vendor) => vendor?.close()));
  });

  const html = (text: string) => ({ text, contentType: 'text/html; charset=utf-8' });
  const rss = (text: string) => ({ text, contentType: 'application/rss+xml' });
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

  test('each company of a deal article gets the deal with its role; a bystander and a merger get none; company news stays off', async () => {
    const companies = [
      ['heron', 'Heron Capital', 'heroncapital.com'],
      ['osprey', 'Osprey Analytics', 'ospreyanalytics.com'],
      ['wren', 'Wren Systems', 'wrensystems.com'],
    ].map(([id, name, domain]) => ({ kind: 'company', id, name, domain }));
    expect((await stack.services.ingestion.ingest(companies)).accepted).toBe(3);
    const api = client(stack, await createAccount(stack, { credits: 100 }));
    // Deals are on by default; company news is not.
    const watchlist = await createSignal(api, 'account-watchlist', {
      name: 'Deals',
      status: 'active',
      config: { companies: SITES },
    });
    await settled(stack, watchlist.id);

    const announced = daysAgo(1);
    const feeds: [string, string, { title: string; path: string; text: string }[]][] = [
      [
        'heron',
        'heroncapital.com',
        [
          {
            title: 'Heron Capital acquires Osprey Analytics',
            path: '/heron/osprey',
            text: 'Heron Capital has agreed to acquire Osprey Analytics for an undisclosed sum.',
          },
        ],
      ],
      [
        'osprey',
        'ospreyanalytics.com',
        [
          {
            title: 'Osprey Analytics to be acquired by Heron Capital',
            path: '/osprey/heron',
            text: 'Osprey Analytics will join Heron Capital when the deal closes.',
          },
        ],
      ],
      [
        'wren',
        'wrensystems.com',
        [
          {
            title: 'Wren Systems and Kite Labs agree to merge',
            path: '/wren/merger',
            text: 'Wren Systems and Kite Labs will combine in an all-stock merger.',
          },
          {
            title: 'Northwind buys Kite Labs, a Wren Systems partner',
            path: '/wren/partner',
            text: 'Northwind buys Kite Labs, a Wren Systems partner since 2021.',
          },
        ],
      ],
    ];
    for (const [id, site, items] of feeds) {
      await stack.services.companyFeeds.remember(id, [`https://${site}/${id}/feed.xml`]);
      web.answer(
        `/${id}/feed.xml`,
        rss(
          rssFeed(
            site,
            items.map((item) => ({
              title: item.title,
              link: `https://${site}${item.path}`,
              description: item.text,
              pubDate: announced,
            })),
          ),
        ),
      );
      for (const item of items)
        web.answer(item.path, html(articlePage({ site, headline: item.title, paragraphs: [item.text] })));
    }

    await runSourceNow(stack, 'news');

    const events = await stack.db.query(
      `SELECT company_id, type, data->>'deal_type' AS deal_type, data->>'watchlist_role' AS role,
              data->>'news_url' AS url FROM events ORDER BY company_id, data->>'news_url', type`,
    );
    expect(events).toEqual([
      {
        company_id: 'heron',
        type: 'company_news',
        deal_type: null,
        role: null,
        url: 'https://heroncapital.com/heron/osprey',
      },
      {
        company_id: 'heron',
        type: 'mergers_acquisitions',
        deal_type: 'Acquisition',
        role: 'acquirer',
        url: 'https://heroncapital.com/heron/osprey',
      },
      {
        company_id: 'osprey',
        type: 'company_news',
        deal_type: null,
        role: null,
        url: 'https://ospreyanalytics.com/osprey/heron',
      },
      {
        company_id: 'osprey',
        type: 'mergers_acquisitions',
        deal_type: 'Acquisition',
        role: 'acquiree',
        url: 'https://ospreyanalytics.com/osprey/heron',
      },
      {
        company_id: 'wren',
        type: 'company_news',
        deal_type: null,
        role: null,
        url: 'https://wrensystems.com/wren/merger',
      },
      {
        company_id: 'wren',
        type: 'mergers_acquisitions',
        deal_type: 'Merger',
        role: '',
        url: 'https://wrensystems.com/wren/merger',
      },
      {
        company_id: 'wren',
        type: 'company_news',
        deal_type: null,
        role: null,
        url: 'https://wrensystems.com/wren/partner',
      },
      {
        company_id: 'wren',
        type: 'mergers_acquisitions',
        deal_type: 'Acquisition',
        role: '',
        url: 'https://wrensystems.com/wren/partner',
      },
    ]);

    await evaluateNow(stack, watchlist.id);
    const leads = await allLeads(api, watchlist.id);
    const deals = leads
      .map((lead) => ({
        company: lead.company.name,
        last_signal: lead.signal.last_signal,
        deal_type: lead.signal.deal_type,
        watchlist_role: lead.signal.watchlist_role,
        announcement_date: lead.signal.announcement_date,
        news_url: lead.signal.news_url,
      }))
      .sort((a, b) => a.news_url.localeCompare(b.news_url));
    const day = announced.toISOString().slice(0, 10);
    const deal = { last_signal: 'Watched Company Deal', announcement_date: day };
    expect(deals).toEqual([
      {
        ...deal,
        company: 'Heron Capital',
        deal_type: 'Acquisition',
        watchlist_role: 'acquirer',
        news_url: 'https://heroncapital.com/heron/osprey',
      },
      {
        ...deal,
        company: 'Osprey Analytics',
        deal_type: 'Acquisition',
        watchlist_role: 'acquiree',
        news_url: 'https://ospreyanalytics.com/osprey/heron',
      },
      {
        ...deal,
        company: 'Wren Systems',
        deal_type: 'Merger',
        watchlist_role: '',
        news_url: 'https://wrensystems.com/wren/merger',
      },
      {
        ...deal,
        company: 'Wren Systems',
        deal_type: 'Acquisition',
        watchlist_role: '',
        news_url: 'https://wrensystems.com/wren/partner',
      },
    ]);
  });
});
