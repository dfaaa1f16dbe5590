import { TEST_ADMIN_TOKEN } from '../setup/stack';
import { call } from '../setup/http';
import {
  ISO_INSTANT,
  UUID,
  allLeads,
  allUsage,
  company,
  createSignal,
  dayOf,
  daysAgo,
  event,
  ingest,
  jobChangeData,
  jobChanger,
  leadEmailOutcomes,
  person,
  settled,
  waitForLeadTotal,
  leadsTestBed,
} from './fixtures';

/**
 * Ingested records come out of the leads endpoint as the specification's Lead resource:
 * whole objects compared, every key, for each kind of lead.
 */

const bed = leadsTestBed({ credits: 1000 });

/** Every field of the account-watchlist `signal` block, in the specification's order, all empty. */
const EMPTY_WATCHLIST_FIELDS = {
  job_offer_url: '',
  job_offer_title: '',
  job_offer_location: '',
  job_offer_description: '',
  job_offer_source: '',
  job_offer_date: '',
  job_offer_published_date: '',
  matched_keywords: '',
  funding_type: '',
  funding_amount_usd: '',
  announcement_date: '',
  deal_type: '',
  watchlist_role: '',
  new_job_started_on: '',
  new_job_start_month: '',
  news_event_type: '',
  news_event_label: '',
  news_event_date: '',
  news_headline: '',
  news_url: '',
  news_title: '',
  news_summary: '',
  news_event_name: '',
  news_event_location: '',
  post_url: '',
  post_date: '',
  engagement_type: '',
};

/** The `company` block of a company made by `company(slug)` (every field known). */
const fullCompany = (slug: string) => ({
  name: `${slug} Labs`,
  website: `https://${slug}.com`,
  linkedin_url: `https://www.linkedin.com/company/${slug}`,
  hq_country_code: 'US',
  hq_city: 'Austin',
  tech_stack: ['React', 'PostgreSQL'],
  homepage_title: '',
  meta_description: '',
  description: `${slug} builds developer tools.`,
  industry: 'Software Development',
  location: 'Austin, United States',
  employee_count: 120,
  employee_range: '51-200',
  headquarters: 'Austin, US',
  company_type: 'Privately Held',
  founded_year: 2015,
});

/** The lead's own id and creation instant: a UUID, and an instant inside the test's window. */
function expectLeadIdentity(contact: { lead_id: string; created_at: string }, from: number, to: number) {
  expect(contact.lead_id).toMatch(UUID);
  expect(contact.created_at).toMatch(ISO_INSTANT);
  const at = Date.parse(contact.created_at);
  expect(at).toBeGreaterThanOrEqual(from - 1000);
  expect(at).toBeLessThanOrEqual(to + 1000);
}

test('a job change: person-level lead with the event data, contact (email found) and the full company', async () => {
  const occurredAt = daysAgo(3);
  const jc = jobChanger('pl-jc', occurredAt, { title: 'CTO' });
  // A person of another persona changing jobs too: filtered out by jobTitles.
  const other = jobChanger('pl-jc-other', daysAgo(2), { title: 'Recruiter' });
  await ingest(bed.stack, [...jc.records, ...other.records]);

  const from = Date.now();
  const signal = await createSignal(bed.api, 'job-changes', {
    name: 'New CTOs',
    status: 'active',
    config: { jobTitles: ['Chief Technology Officer'], getEmails: true },
  });
  await settled(bed.stack, signal.id);
  const [produced] = await waitForLeadTotal(bed.api, signal.id, 1);
  // The email is found by the lead's workflow after production.
  expect(await leadEmailOutcomes(bed.stack, [produced.contact.lead_id])).toEqual(['found']);
  const to = Date.now();

  const [lead] = await allLeads(bed.api, signal.id);
  expect(lead).toEqual({
    signal: {
      id: signal.id,
      name: 'New CTOs',
      type: 'job_changes',
      last_signal: 'Job Change',
      last_signal_date: dayOf(occurredAt),
      previous_title: 'VP Engineering',
      previous_company: 'Globex',
      new_title: 'CTO',
      new_company: 'pl-jc-co Labs',
      new_job_started_on: '10/2026',
      new_job_start_month: '2026-10',
      change_type: 'company',
    },
    contact: {
      lead_id: expect.any(String),
      created_at: expect.any(String),
      first_name: 'Ada',
      last_name: 'Lovelace-pl-jc',
      email: 'pl-jc@example.com',
      phone: '',
      title: 'CTO',
      location: 'Austin, United States',
      city: 'Austin',
      country_code: 'US',
      linkedin_profile_url: 'https://www.linkedin.com/in/pl-jc',
      sales_navigator_profile_url: '',
      matched_persona: 'Chief Technology Officer',
    },
    company: fullCompany('pl-jc-co'),
  });
  expectLeadIdentity(lead.contact, from, to);
  // The lead id is the one the ledger names.
  const usage = await allUsage(bed.api, signal.id);
  expect(usage.filter((u) => u.operation === 'lead').map((u) => u.leadId)).toEqual([lead.contact.lead_id]);
});

test('a funding event: company-level watchlist lead, contact empty, only the funding fields filled', async () => {
  const co = company('pl-fund');
  // People at the company do not turn a company event into a person-level lead without personas.
  const cto = person('pl-fund-cto', co.id, { title: 'CTO' });
  const occurredAt = daysAgo(5);
  await ingest(bed.stack, [
    co,
    cto,
    event('ev-pl-fund', 'fundraising', occurredAt, co.id, {
      data: { funding_type: 'Series B', funding_amount_usd: 25_000_000, announcement_date: dayOf(occurredAt) },
    }),
  ]);

  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Funding watch',
    status: 'active',
    config: { companies: ['pl-fund.com'] },
  });
  await settled(bed.stack, signal.id);
  const [lead] = await waitForLeadTotal(bed.api, signal.id, 1);

  expect(lead).toEqual({
    signal: {
      id: signal.id,
      name: 'Funding watch',
      type: 'account_watchlist',
      last_signal: 'Watched Company Raised',
      last_signal_date: dayOf(occurredAt),
      ...EMPTY_WATCHLIST_FIELDS,
      funding_type: 'Series B',
      funding_amount_usd: 25_000_000,
      announcement_date: dayOf(occurredAt),
    },
    contact: '',
    company: fullCompany('pl-fund'),
  });
  expect(typeof lead.signal.funding_amount_usd).toBe('number');
});

test('a new decision maker: person-level watchlist lead with its contact (phone with getPhones)', async () => {
  const co = company('pl-ndm');
  const cfo = person('pl-ndm-cfo', co.id, {
    firstName: 'Grace',
    lastName: 'Hopper',
    title: 'CFO',
    location: 'Greater Austin Area',
    email: null,
  });
  const occurredAt = daysAgo(4);
  await ingest(bed.stack, [
    co,
    cfo,
    event('ev-pl-ndm', 'new_decision_makers', occurredAt, co.id, {
      personId: cfo.id,
      data: { new_job_started_on: '09/2026', new_job_start_month: '2026-09' },
    }),
  ]);

  const from = Date.now();
  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Decision makers',
    status: 'active',
    config: { companies: [{ name: 'pl-ndm Labs', domain: 'pl-ndm.com' }], getPhones: true },
  });
  await settled(bed.stack, signal.id);
  const [lead] = await waitForLeadTotal(bed.api, signal.id, 1);
  const to = Date.now();

  expect(lead).toEqual({
    signal: {
      id: signal.id,
      name: 'Decision makers',
      type: 'account_watchlist',
      last_signal: 'New Decision Maker Watchlist',
      last_signal_date: dayOf(occurredAt),
      ...EMPTY_WATCHLIST_FIELDS,
      new_job_started_on: '09/2026',
      new_job_start_month: '2026-09',
    },
    contact: {
      lead_id: expect.any(String),
      created_at: expect.any(String),
      first_name: 'Grace',
      last_name: 'Hopper',
      email: '',
      phone: '+1 512 555 0100',
      title: 'CFO',
      location: 'Greater Austin Area',
      city: 'Austin',
      country_code: 'US',
      linkedin_profile_url: 'https://www.linkedin.com/in/pl-ndm-cfo',
      sales_navigator_profile_url: '',
      matched_persona: 'Chief Financial Officer',
    },
    company: fullCompany('pl-ndm'),
  });
  expectLeadIdentity(lead.contact, from, to);
});

test('a company event with targetPersonas: the contact is a person of that persona at the company', async () => {
  const co = company('pl-persona');
  const cto = person('pl-persona-cto', co.id, { title: 'CTO' });
  const cfo = person('pl-persona-cfo', co.id, {
    firstName: 'Katherine',
    lastName: 'Johnson',
    title: 'Chief Financial Officer',
  });
  const dev = person('pl-persona-dev', co.id, { title: 'Software Engineer' });
  // A second watched company with nobody of the persona: its event yields no lead.
  const bare = company('pl-persona-bare');
  const bareDev = person('pl-persona-bare-dev', bare.id, { title: 'Software Engineer' });
  const occurredAt = daysAgo(6);
  const jobOffer = {
    job_offer_url: 'https://jobs.example.com/pl-persona/123',
    job_offer_title: 'Head of Finance Operations',
    job_offer_location: 'Austin, TX',
    job_offer_description: 'Own the close and the audit.',
    job_offer_source: 'LinkedIn',
    job_offer_date: '2 days ago',
    job_offer_published_date: dayOf(occurredAt),
    matched_keywords: 'finance, audit',
  };
  await ingest(bed.stack, [
    co,
    cto,
    cfo,
    dev,
    bare,
    bareDev,
    event('ev-pl-persona', 'job_offers', occurredAt, co.id, { data: jobOffer }),
    event('ev-pl-persona-bare', 'fundraising', daysAgo(5), bare.id, {
      data: { funding_type: 'Seed', funding_amount_usd: 1_000_000 },
    }),
  ]);

  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Finance leaders',
    status: 'active',
    config: {
      companies: ['https://www.linkedin.com/company/pl-persona', 'pl-persona-bare.com'],
      targetPersonas: ['Chief Financial Officer'],
    },
  });
  const state = await settled(bed.stack, signal.id);
  expect(state.leadsStarted).toBe(1);
  const leads = await allLeads(bed.api, signal.id);
  expect(leads).toHaveLength(1);

  expect(leads[0]).toEqual({
    signal: {
      id: signal.id,
      name: 'Finance leaders',
      type: 'account_watchlist',
      last_signal: 'Job Offer',
      last_signal_date: dayOf(occurredAt),
      ...EMPTY_WATCHLIST_FIELDS,
      ...jobOffer,
    },
    contact: {
      lead_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(ISO_INSTANT),
      first_name: 'Katherine',
      last_name: 'Johnson',
      email: '',
      phone: '',
      title: 'Chief Financial Officer',
      location: 'Austin, United States',
      city: 'Austin',
      country_code: 'US',
      linkedin_profile_url: 'https://www.linkedin.com/in/pl-persona-cfo',
      sales_navigator_profile_url: '',
      matched_persona: 'Chief Financial Officer',
    },
    company: fullCompany('pl-persona'),
  });
});

test('a company known by name and domain only: every company key present, the unknown ones empty strings', async () => {
  const sparse = company('pl-sparse', {
    linkedinUrl: null,
    industry: null,
    employeeCount: null,
    hqCountryCode: null,
    hqCity: null,
    description: null,
    companyType: null,
    foundedYear: null,
    techStack: [],
  });
  const occurredAt = daysAgo(1);
  await ingest(bed.stack, [
    sparse,
    event('ev-pl-sparse', 'mergers_acquisitions', occurredAt, sparse.id, {
      data: { deal_type: 'Acquisition', watchlist_role: 'acquirer', announcement_date: dayOf(occurredAt) },
    }),
  ]);
  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Deals',
    status: 'active',
    config: { companies: ['pl-sparse.com'] },
  });
  await settled(bed.stack, signal.id);
  const [lead] = await waitForLeadTotal(bed.api, signal.id, 1);
  expect(lead).toEqual({
    signal: {
      id: signal.id,
      name: 'Deals',
      type: 'account_watchlist',
      last_signal: 'Watched Company Deal',
      last_signal_date: dayOf(occurredAt),
      ...EMPTY_WATCHLIST_FIELDS,
      deal_type: 'Acquisition',
      watchlist_role: 'acquirer',
      announcement_date: dayOf(occurredAt),
    },
    contact: '',
    company: {
      name: 'pl-sparse Labs',
      website: 'https://pl-sparse.com',
      linkedin_url: '',
      hq_country_code: '',
      hq_city: '',
      tech_stack: '',
      homepage_title: '',
      meta_description: '',
      description: '',
      industry: '',
      location: '',
      employee_count: '',
      employee_range: '',
      headquarters: '',
      company_type: '',
      founded_year: '',
    },
  });
});

test('polling serves the same lead twice alike, and a job change is read through the JSON-array ingestion form too', async () => {
  // The JSON-array form of the ingestion endpoint feeds production the same way as NDJSON.
  const jc = jobChanger('pl-array', daysAgo(2), { title: 'Chief Marketing Officer' });
  const answer = await call(`${bed.stack.url}/admin/v1/ingest`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    body: jc.records,
  });
  expect(answer.body).toEqual({ accepted: 3, duplicates: 0, rejected: 0, errors: [] });
  const signal = await createSignal(bed.api, 'job-changes', {
    name: 'CMOs',
    status: 'active',
    config: { jobTitles: ['Chief Marketing Officer'] },
  });
  await settled(bed.stack, signal.id);
  const first = await waitForLeadTotal(bed.api, signal.id, 1);
  expect(first[0].signal).toEqual({
    id: signal.id,
    name: 'CMOs',
    type: 'job_changes',
    last_signal: 'Job Change',
    last_signal_date: dayOf(jc.event.occurredAt),
    ...jobChangeData('Chief Marketing Officer', 'pl-array-co Labs'),
  });
  expect(first[0].contact.email).toBe('');
  expect(await allLeads(bed.api, signal.id)).toEqual(first);
});
