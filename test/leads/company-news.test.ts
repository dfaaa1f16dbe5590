import {
  allLeads,
  company,
  createSignal,
  daysAgo,
  event,
  expectStatus,
  ingest,
  settled,
  leadsTestBed,
} from './fixtures';

/**
 * company_news events are "each checked against the article": one becomes a lead only when its
 * article (URL, and headline or title) is there and names the company, by name or domain.
 */

const bed = leadsTestBed({ credits: 1000 });

test('news becomes a lead only when its article is there and names the company; the funnel counts the rest under companyNewsArticle', async () => {
  const acme = company('newsy', { name: 'Newsy Robotics', domain: 'newsy-robotics.com' });
  const news = (id: string, days: number, data: Record<string, string>) =>
    event(id, 'company_news', daysAgo(days), acme.id, { data: { news_event_type: 'product_launch', ...data } });
  await ingest(bed.stack, [
    acme,
    news('news-named', 2, {
      news_headline: 'Newsy Robotics launches a warehouse arm',
      news_url: 'https://www.techwire.example/2026/11/newsy-arm',
      news_title: 'Newsy Robotics launches a warehouse arm | Techwire',
    }),
    news('news-domain', 3, { news_title: 'A new arm for warehouses', news_url: 'https://newsy-robotics.com/blog/arm' }),
    news('news-no-url', 4, { news_headline: 'Newsy Robotics opens Austin office' }),
    news('news-no-headline', 5, {
      news_url: 'https://www.techwire.example/2026/11/newsy',
      news_summary: 'Newsy Robotics grows.',
    }),
    news('news-other-company', 6, {
      news_headline: 'Globex buys a robot maker',
      news_url: 'https://www.techwire.example/2026/11/globex',
    }),
  ]);

  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Newsy news',
    status: 'active',
    config: { companies: ['newsy-robotics.com'], sources: { company_news: { enabled: true } } },
  });
  await settled(bed.stack, signal.id);

  const leads = await allLeads(bed.api, signal.id);
  expect(leads.map((lead) => lead.signal.news_url).sort()).toEqual([
    'https://newsy-robotics.com/blog/arm',
    'https://www.techwire.example/2026/11/newsy-arm',
  ]);
  expect(leads.every((lead) => lead.signal.last_signal === 'Company News')).toBe(true);

  const funnel = expectStatus(await bed.api.get(`/signals/${signal.id}/funnel`), 200);
  expect(funnel.candidates).toBe(5);
  expect(funnel.stages.find((stage: { filter: string }) => stage.filter === 'companyNewsArticle')).toEqual({
    filter: 'companyNewsArticle',
    removed: 3,
    remaining: 2,
  });
  expect(funnel.leads).toBe(2);
});

test('a company stored with its legal form is named in news without it, as the news source reads it', async () => {
  const beta = company('beta-foods', { name: 'Beta Foods GmbH', domain: 'betafoods-kitchen.de' });
  await ingest(bed.stack, [
    beta,
    event('news-beta', 'company_news', daysAgo(2), beta.id, {
      data: {
        news_event_type: 'funding',
        news_headline: 'Beta Foods raises EUR 5M for its kitchens',
        news_url: 'https://www.foodwire.example/2026/11/beta',
      },
    }),
    event('news-beta-other', 'company_news', daysAgo(3), beta.id, {
      data: {
        news_event_type: 'funding',
        news_headline: 'Betamax Foods raises EUR 1M',
        news_url: 'https://www.foodwire.example/2026/11/betamax',
      },
    }),
  ]);
  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Beta news',
    status: 'active',
    config: { companies: ['betafoods-kitchen.de'], sources: { company_news: { enabled: true } } },
  });
  await settled(bed.stack, signal.id);
  const leads = await allLeads(bed.api, signal.id);
  expect(leads.map((lead) => lead.signal.news_url)).toEqual(['https://www.foodwire.example/2026/11/beta']);
});
