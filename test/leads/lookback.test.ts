import {
  allLeads,
  company,
  createSignal,
  dayOf,
  daysAgo,
  evaluateNow,
  event,
  expectStatus,
  getSignal,
  ingest,
  settled,
  workflowState,
  leadsTestBed,
} from './fixtures';

/**
 * The watchlist's first check reaches back firstRunLookbackDays; later checks deliver what is
 * new. Event kinds follow `sources`: everything on except company_news.
 */

const bed = leadsTestBed({ credits: 1000 });

test('firstRunLookbackDays 30: the first check delivers the 10-day-old event, not the 60-day-old one; later checks deliver new events', async () => {
  const co = company('lb-window');
  const tenDays = daysAgo(10);
  await ingest(bed.stack, [
    co,
    event('ev-lb-10d', 'fundraising', tenDays, co.id, {
      data: { funding_type: 'Series A', announcement_date: dayOf(tenDays) },
    }),
    event('ev-lb-60d', 'public_tenders', daysAgo(60), co.id),
  ]);
  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Last month',
    status: 'active',
    config: { companies: ['lb-window.com'], firstRunLookbackDays: 30 },
  });
  expect(signal.config.firstRunLookbackDays).toBe(30);
  await settled(bed.stack, signal.id);
  const first = await allLeads(bed.api, signal.id);
  expect(first.map((l) => [l.signal.last_signal, l.signal.last_signal_date])).toEqual([
    ['Watched Company Raised', dayOf(tenDays)],
  ]);

  // Nothing new: a check delivers nothing.
  await evaluateNow(bed.stack, signal.id);
  expect(await allLeads(bed.api, signal.id)).toHaveLength(1);

  // A new event arrives: the next check delivers it (and still not the old one, nor one older than the window).
  const fresh = daysAgo(0.05);
  await ingest(bed.stack, [
    event('ev-lb-new', 'job_offers', fresh, co.id, {
      data: { job_offer_title: 'Staff Engineer', job_offer_source: 'Indeed' },
    }),
    event('ev-lb-45d', 'forecasted_growth', daysAgo(45), co.id),
  ]);
  await evaluateNow(bed.stack, signal.id);
  const leads = await allLeads(bed.api, signal.id);
  expect(leads.map((l) => [l.signal.last_signal, l.signal.last_signal_date])).toEqual([
    ['Job Offer', dayOf(fresh)],
    ['Watched Company Raised', dayOf(tenDays)],
  ]);
  expect(leads[0].signal).toMatchObject({ job_offer_title: 'Staff Engineer', job_offer_source: 'Indeed' });
  expect(await getSignal(bed.api, signal.id)).toMatchObject({ leadsTotal: 2 });
});

test('the default lookback is 180 days', async () => {
  const co = company('lb-default');
  await ingest(bed.stack, [
    co,
    event('ev-lb-d-170', 'fundraising', daysAgo(170), co.id),
    event('ev-lb-d-200', 'public_tenders', daysAgo(200), co.id),
  ]);
  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Default lookback',
    status: 'active',
    config: { companies: ['lb-default.com'] },
  });
  expect(signal.config.firstRunLookbackDays).toBe(180);
  await settled(bed.stack, signal.id);
  expect((await allLeads(bed.api, signal.id)).map((l) => l.signal.last_signal)).toEqual(['Watched Company Raised']);
});

test('company_news is off by default, and produced once enabled through PATCH sources', async () => {
  const co = company('lb-news');
  const newsDay = daysAgo(3);
  const news = {
    news_event_type: 'product_launch',
    news_event_label: 'Product launch',
    news_event_date: dayOf(newsDay),
    news_headline: 'lb-news launches its platform',
    news_url: 'https://news.example.com/lb-news-launch',
    news_title: 'lb-news launches',
    news_summary: 'The company released its first platform.',
  };
  await ingest(bed.stack, [
    co,
    event('ev-lb-news', 'company_news', newsDay, co.id, { data: news }),
    event('ev-lb-raise', 'fundraising', daysAgo(4), co.id, { data: { funding_type: 'Seed' } }),
  ]);
  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'News watch',
    status: 'active',
    config: { companies: ['lb-news.com'] },
  });
  expect(signal.config.sources.company_news).toEqual({ enabled: false });
  expect(signal.config.sources.fundraising).toEqual({ enabled: true });
  await settled(bed.stack, signal.id);
  expect((await allLeads(bed.api, signal.id)).map((l) => l.signal.last_signal)).toEqual(['Watched Company Raised']);
  await evaluateNow(bed.stack, signal.id);
  expect(await allLeads(bed.api, signal.id)).toHaveLength(1);

  // Enabling it is a config change: the workflow evaluates, and the news event is a lead.
  const before = (await workflowState(bed.stack, signal.id))!.evaluations;
  const patched = expectStatus(
    await bed.api.patch(`/signals/${signal.id}`, { config: { sources: { company_news: { enabled: true } } } }),
    200,
  );
  expect(patched.config.sources.company_news).toEqual({ enabled: true });
  expect(patched.config.sources.fundraising).toEqual({ enabled: true });
  await settled(bed.stack, signal.id, before + 1);
  const leads = await allLeads(bed.api, signal.id);
  expect(leads).toHaveLength(2);
  expect(leads[0].signal).toMatchObject({ last_signal: 'Company News', last_signal_date: dayOf(newsDay), ...news });
  expect(leads[0].contact).toBe('');
});
