import type { Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import {
  allLeads,
  allUsage,
  balanceOf,
  client,
  company,
  createSignal,
  daysAgo,
  event,
  expectStatus,
  ingest,
  leadEmailOutcomes,
  person,
  settled,
  startLeadsStack,
  type Client,
} from './fixtures';

/**
 * Market-wide fundraising and hiring signals: rounds and postings at any company in the data
 * become billed, delivered leads carrying their fields.
 */

let stack: Stack;
let account: TestAccount;
let api: Client;
let receiver: Receiver;

const day = (iso: string) => iso.slice(0, 10);
const rounds = {
  a: daysAgo(10),
  b: daysAgo(20),
  c: daysAgo(200),
  d: daysAgo(5),
};

beforeAll(async () => {
  stack = await startLeadsStack();
  account = await createAccount(stack, { credits: 1000 });
  api = client(stack, account);
  receiver = await startReceiver({ secret: account.webhookSecret });
  const a = company('mkt-a');
  const b = company('mkt-b', {
    industry: 'Financial Services',
    employeeCount: 3000,
    hqCountryCode: 'GB',
    hqCity: 'London',
  });
  const c = company('mkt-c');
  const d = company('mkt-d');
  const e = company('mkt-e', { hqCountryCode: 'DE', hqCity: 'Berlin' });
  await ingest(stack, [
    a,
    b,
    c,
    d,
    e,
    person('mkt-a-cto', a.id, { title: 'CTO', email: 'cto@mkt-a.com' }),
    event('ev-round-a', 'fundraising', rounds.a, a.id, {
      data: { funding_type: 'Series A', funding_amount_usd: 12_000_000, announcement_date: day(rounds.a) },
    }),
    event('ev-round-b', 'fundraising', rounds.b, b.id, {
      data: { funding_type: 'Series B', funding_amount_usd: 40_000_000, announcement_date: day(rounds.b) },
    }),
    event('ev-round-c', 'fundraising', rounds.c, c.id, {
      data: { funding_stage: 'Seed', funding_amount_usd: 2_000_000 },
    }),
    event('ev-round-d', 'fundraising', rounds.d, d.id, { data: { funding_stage: 'Series A' } }),
    event('ev-job-backend', 'job_offers', daysAgo(3), e.id, {
      data: {
        job_offer_url: 'https://jobs.example.com/mkt-e/backend',
        job_offer_title: 'Senior Backend Engineer',
        job_offer_location: 'Berlin, Germany',
        job_offer_description: 'Run our services on Kubernetes and PostgreSQL.',
        job_offer_source: 'LinkedIn',
        job_offer_date: day(daysAgo(3)),
        job_offer_published_date: day(daysAgo(3)),
        matched_keywords: 'whatever the provider thought',
      },
    }),
    event('ev-job-sales', 'job_offers', daysAgo(4), e.id, {
      data: {
        job_offer_title: 'Account Executive',
        job_offer_location: 'Austin, United States',
        job_offer_description: 'Sell our Kubernetes platform to enterprises.',
        job_offer_source: 'Indeed',
      },
    }),
    event('ev-job-old', 'job_offers', daysAgo(60), e.id, {
      data: {
        job_offer_title: 'Platform Engineer',
        job_offer_location: 'Berlin, Germany',
        job_offer_description: 'Kubernetes all day.',
      },
    }),
  ]);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

describe('fundraising', () => {
  test('rounds by stage, amount, industry and persona become billed, delivered leads with the round on them', async () => {
    const before = await balanceOf(api);
    const signal = await createSignal(api, 'fundraising', {
      name: 'Series A/B software',
      status: 'active',
      webhookUrl: receiver.url,
      config: {
        fundingStages: ['Series A', 'Series B'],
        minAmountUsd: 10_000_000,
        industryFilters: ['Software Development'],
        targetPersonas: ['Chief Technology Officer'],
        getEmails: true,
      },
    });
    expect(signal).toMatchObject({
      signalTypeId: 'fundraising',
      duplicateHandling: 'allow',
      applied: {},
      warnings: [],
    });
    await settled(stack, signal.id);

    const leads = await allLeads(api, signal.id);
    expect(leads).toHaveLength(1);
    const [lead] = leads;
    expect(await leadEmailOutcomes(stack, [lead.contact.lead_id])).toEqual(['found']);
    expect(lead.signal).toEqual({
      id: signal.id,
      name: 'Series A/B software',
      type: 'fundraising',
      last_signal: 'Company Raised',
      last_signal_date: day(rounds.a),
      funding_stage: 'Series A',
      funding_amount_usd: 12_000_000,
      announcement_date: day(rounds.a),
    });
    expect(lead.contact).toMatchObject({
      first_name: 'Ada',
      title: 'CTO',
      matched_persona: 'Chief Technology Officer',
    });
    expect(lead.company).toMatchObject({ name: 'mkt-a Labs', website: 'https://mkt-a.com' });

    // 2 credits for the lead, 0.5 for the email found, as for job changes.
    const usage = await allUsage(api, signal.id);
    expect(usage.map((u) => [u.operation, u.credits]).sort()).toEqual(
      [
        ['email_found', -0.5],
        ['lead', -2],
      ].sort(),
    );
    expect(before - (await balanceOf(api))).toBe(2.5);

    const [delivered] = await receiver.waitFor(1);
    expect(delivered.verified).toBe(true);
    expect(delivered.body.signal).toEqual(lead.signal);
    expect(delivered.body.contact.email).toBe('cto@mkt-a.com');

    const funnel = expectStatus(await api.get(`/signals/${signal.id}/funnel`), 200);
    expect(funnel.stages.map((s: { filter: string; removed: number }) => [s.filter, s.removed])).toEqual([
      // c (Seed) was 200 days old when it arrived: no evaluation of these 30 days considered it.
      ['fundingStages', 0],
      ['minAmountUsd', 1], // d: amount unknown
      ['maxAmountUsd', 0],
      ['maxAnnouncementAgeDays', 0],
      ['industryFilters', 1], // b: Financial Services
      ['companySizeFilters', 0],
      ['locations', 0],
      ['targetPersonas', 0],
      ['suppressed', 0],
      ['duplicate', 0],
      ['dailyLeadLimit', 0],
      ['credits', 0],
    ]);
    expect(funnel.leads).toBe(1);
  });

  test('without filters every recent round is a company-level lead; older ones than maxAnnouncementAgeDays are not', async () => {
    const signal = await createSignal(api, 'fundraising', { name: 'All rounds', status: 'active', config: {} });
    await settled(stack, signal.id);
    const leads = await allLeads(api, signal.id);
    expect(leads.map((l) => [l.company.name, l.signal.funding_stage, l.signal.funding_amount_usd]).sort()).toEqual([
      ['mkt-a Labs', 'Series A', 12_000_000],
      ['mkt-b Labs', 'Series B', 40_000_000],
      ['mkt-d Labs', 'Series A', ''],
    ]);
    expect(leads.every((l) => l.contact === '')).toBe(true);
    // The round of 200 days ago needs a longer window.
    const longer = await createSignal(api, 'fundraising', {
      name: 'Seed, a year',
      status: 'active',
      config: { maxAnnouncementAgeDays: 365, fundingStages: ['Seed'] },
    });
    await settled(stack, longer.id);
    expect((await allLeads(api, longer.id)).map((l) => [l.company.name, l.signal.announcement_date])).toEqual([
      ['mkt-c Labs', day(rounds.c)],
    ]);
  });

  test('an amount range upside down is refused; getEmails without personas is reported unused', async () => {
    const refused = await api.post('/signals/fundraising', {
      name: 'Bad',
      config: { minAmountUsd: 5, maxAmountUsd: 1 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'config.maxAmountUsd' })]);
    const unused = await createSignal(api, 'fundraising', { name: 'Emails', config: { getEmails: true } });
    expect(unused.applied).toEqual({ getEmails: null });
    expect(unused.warnings).toEqual([expect.objectContaining({ code: 'FIELD_UNUSED', field: 'getEmails' })]);
  });
});

describe('hiring', () => {
  test('postings matching keywords, department and job location become leads with the posting and the keywords that matched', async () => {
    const signal = await createSignal(api, 'hiring', {
      name: 'Kubernetes engineers in Germany',
      status: 'active',
      config: { keywords: ['Kubernetes', 'Terraform'], departments: ['engineering'], jobLocations: ['Germany'] },
    });
    expect(signal).toMatchObject({ signalTypeId: 'hiring', duplicateHandling: '30d' });
    await settled(stack, signal.id);
    const leads = await allLeads(api, signal.id);
    expect(leads).toHaveLength(1);
    expect(leads[0].signal).toEqual({
      id: signal.id,
      name: 'Kubernetes engineers in Germany',
      type: 'hiring',
      last_signal: 'Job Offer',
      last_signal_date: day(daysAgo(3)),
      job_offer_url: 'https://jobs.example.com/mkt-e/backend',
      job_offer_title: 'Senior Backend Engineer',
      job_offer_location: 'Berlin, Germany',
      job_offer_description: 'Run our services on Kubernetes and PostgreSQL.',
      job_offer_source: 'LinkedIn',
      job_offer_date: day(daysAgo(3)),
      job_offer_published_date: day(daysAgo(3)),
      matched_keywords: 'Kubernetes',
    });
    expect(leads[0].contact).toBe('');
    expect((await allUsage(api, signal.id)).map((u) => [u.operation, u.credits])).toEqual([['lead', -2]]);

    const funnel = expectStatus(await api.get(`/signals/${signal.id}/funnel`), 200);
    const removed = Object.fromEntries(
      funnel.stages.map((s: { filter: string; removed: number }) => [s.filter, s.removed]),
    );
    // The sales posting is not engineering; the 60-day-old one never was a candidate of these 30 days.
    expect(removed).toMatchObject({ keywords: 0, departments: 1, jobLocations: 0, maxPostingAgeDays: 0 });
    expect(funnel.leads).toBe(1);
  });

  test('the duplicate rule: one company posting twice is one lead within 30 days by default', async () => {
    const signal = await createSignal(api, 'hiring', {
      name: 'Anything Kubernetes',
      status: 'active',
      config: { keywords: ['kubernetes'] },
    });
    await settled(stack, signal.id);
    const leads = await allLeads(api, signal.id);
    expect(leads.map((l) => l.signal.job_offer_title)).toEqual(['Account Executive']); // the older of the two recent postings
    const funnel = expectStatus(await api.get(`/signals/${signal.id}/funnel`), 200);
    expect(funnel.stages.find((s: { filter: string }) => s.filter === 'duplicate').removed).toBe(1);
  });

  test('activating without keywords answers 400 MISSING_REQUIRED_FIELDS; an unknown job location 400 INVALID_LOCATION', async () => {
    const missing = await api.post('/signals/hiring', {
      name: 'No keywords',
      status: 'active',
      config: { departments: ['sales'] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELDS', missing_fields: ['config.keywords'] });
    const place = await api.post('/signals/hiring', {
      name: 'Nowhere',
      config: { keywords: ['go'], jobLocations: ['Xyzzyland'] },
    });
    expect(place.status).toBe(400);
    expect(place.body.error).toMatchObject({ code: 'INVALID_LOCATION', invalid_locations: ['Xyzzyland'] });
  });
});

test('the catalogue lists both types with their endpoint, parameters, price and output fields', async () => {
  const { signalTypes } = expectStatus(await api.get('/signal-types'), 200);
  const byId = Object.fromEntries(signalTypes.map((t: { signalTypeId: string }) => [t.signalTypeId, t]));
  expect(byId.fundraising).toMatchObject({
    createEndpoint: 'POST /api/v1/signals/fundraising',
    creditsPerLead: 2,
    outputFields: {
      signal: [
        'id',
        'name',
        'type',
        'last_signal',
        'last_signal_date',
        'funding_stage',
        'funding_amount_usd',
        'announcement_date',
      ],
    },
  });
  expect(byId.fundraising.configParameters.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining([
      'fundingStages',
      'minAmountUsd',
      'maxAmountUsd',
      'maxAnnouncementAgeDays',
      'targetPersonas',
      'getEmails',
    ]),
  );
  expect(byId.hiring).toMatchObject({ createEndpoint: 'POST /api/v1/signals/hiring', creditsPerLead: 2 });
  expect(byId.hiring.outputFields.signal).toContain('matched_keywords');
  expect(byId.hiring.configParameters.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining(['keywords', 'departments', 'seniorities', 'jobLocations', 'maxPostingAgeDays']),
  );
});
