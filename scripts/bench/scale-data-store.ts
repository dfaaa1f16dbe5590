/**
 * The scale-data section's store: companies, people and events bulk-loaded in SQL with the
 * shares of the catalogue (industries, size bands, countries, personas, event kinds), and the
 * new records that arrive while signals run, shaped as a provider sends them to
 * `POST /admin/v1/ingest`. Both draw from the same weighted tables, so a signal's filters
 * match a similar share of the history and of the arrivals.
 */
import { performance } from 'node:perf_hooks';
import type { Client as PgClient } from 'pg';
import { COMPANY_SIZE_BANDS, bandRange } from '../../src/catalogue/company-sizes';
import { isKnownIndustry, listIndustries } from '../../src/catalogue/industries';
import { countryName, majorCitiesOf } from '../../src/catalogue/locations';
import { FUNDING_STAGES, jobPostingProfile } from '../../src/catalogue/market-signals';
import { listPersonas } from '../../src/catalogue/personas';
import { PERSON_LEVEL_WATCHLIST_EVENTS } from '../../src/catalogue/watchlist-events';

/** Rows per INSERT ... SELECT: one statement per chunk, a log line every few. */
const CHUNK = 250_000;
/** Weighted tables are drawn from as arrays of this many slots. */
const SLOTS = 1000;

/** A seeded generator (mulberry32): the same signals and arrivals on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `SLOTS` values, each appearing in proportion to its weight. */
function slots<T>(weighted: readonly (readonly [T, number])[]): T[] {
  const total = weighted.reduce((sum, [, w]) => sum + w, 0);
  const out: T[] = [];
  let acc = 0;
  for (const [value, weight] of weighted) {
    acc += weight;
    while (out.length < Math.round((acc / total) * SLOTS)) out.push(value);
  }
  return out;
}

/** Countries and their shares of companies (the rest spread over smaller markets). */
export const COUNTRY_WEIGHTS: readonly (readonly [string, number])[] = [
  ['US', 40],
  ['GB', 11],
  ['DE', 8],
  ['FR', 6],
  ['CA', 5],
  ['IN', 6],
  ['NL', 3],
  ['AU', 3],
  ['ES', 3],
  ['SE', 2],
  ['IT', 3],
  ['BR', 4],
  ['IE', 1],
  ['CH', 1],
  ['PL', 2],
  ['JP', 2],
];

/** The industries most companies are tagged with; every other industry of the catalogue shares the rest. */
export const COMMON_INDUSTRIES = [
  'Software Development',
  'IT Services and IT Consulting',
  'Financial Services',
  'Hospitals and Health Care',
  'Retail',
  'Manufacturing',
  'Education',
  'Construction',
  'Real Estate',
  'Staffing and Recruiting',
  'Advertising Services',
  'Business Consulting and Services',
  'Banking',
  'Insurance',
  'Technology, Information and Internet',
  'Computer and Network Security',
  'Marketing Services',
  'Biotechnology Research',
  'Telecommunications',
  'Wholesale',
].filter(isKnownIndustry);

/** Personas most people hold; 30 % of people hold a title no persona covers. */
export const COMMON_PERSONAS = [
  'Software Engineer',
  'Account Executive',
  'Sales Manager',
  'Marketing Manager',
  'Project Manager',
  'Data Analyst',
  'Customer Success Manager',
  'Operations Manager',
  'Recruiter',
  'Accountant',
  'Engineering Manager',
  'Product Manager',
  'DevOps Engineer',
  'Data Scientist',
  'Business Development Manager',
];

/** Event kinds and their shares of the stored history and of the arrivals. */
export const EVENT_TYPE_WEIGHTS: readonly (readonly [string, number])[] = [
  ['job_change', 40],
  ['job_offers', 33],
  ['fundraising', 3],
  ['recruitment_campaign', 4],
  ['new_decision_makers', 6],
  ['company_post_reactions', 5],
  ['company_news', 3],
  ['mergers_acquisitions', 1],
  ['forecasted_growth', 2],
  ['public_tenders', 1],
  ['competitor_social_reactions', 2],
];

const POSTING_TITLES = [
  'Senior Backend Engineer',
  'Software Engineer',
  'DevOps Engineer',
  'Data Scientist',
  'Data Engineer',
  'Account Executive',
  'Sales Development Representative',
  'Marketing Manager',
  'Product Manager',
  'Customer Success Manager',
  'Financial Analyst',
  'Recruiter',
  'Head of Engineering',
  'VP of Sales',
  'Registered Nurse',
  'Store Associate',
  'Warehouse Operative',
  'Security Engineer',
  'Frontend Developer',
  'Operations Manager',
];
const POSTING_TOOLS = ['Python', 'Kubernetes', 'Salesforce', 'React', 'PostgreSQL', 'HubSpot', 'AWS', 'Excel'];
const OTHER_TITLES = ['Nurse', 'Teacher', 'Store Associate', 'Technician', 'Consultant', 'Analyst', 'Driver'];

export interface Place {
  countryCode: string;
  country: string;
  city: string;
}

export interface Posting {
  data: Record<string, string>;
  department: string | null;
  seniority: string | null;
  countryCode: string | null;
  regionCode: string | null;
  city: string | null;
}

/** The weighted tables both the bulk load and the arrivals draw from. */
export interface StoreShape {
  places: Place[];
  placeSlots: number[];
  industrySlots: string[];
  personaSlots: (string | null)[];
  titleSlots: string[];
  typeSlots: string[];
  postings: Posting[];
}

export function storeShape(): StoreShape {
  const places: Place[] = [];
  const placeWeights: [number, number][] = [];
  for (const [code, weight] of COUNTRY_WEIGHTS) {
    const cities = majorCitiesOf(code)
      .slice(0, 3)
      .map((c) => c.name);
    for (const city of cities.length ? cities : [countryName(code) ?? code]) {
      placeWeights.push([places.length, weight / Math.max(1, cities.length)]);
      places.push({ countryCode: code, country: countryName(code) ?? code, city });
    }
  }
  const others = listIndustries()
    .map((i) => i.name)
    .filter((name) => !COMMON_INDUSTRIES.includes(name));
  const industrySlots = slots<string>([
    ...COMMON_INDUSTRIES.map((name) => [name, 60 / COMMON_INDUSTRIES.length] as const),
    ...others.map((name) => [name, 40 / others.length] as const),
  ]);
  const rarer = listPersonas()
    .map((p) => p.name)
    .filter((name) => !COMMON_PERSONAS.includes(name));
  const personaWeights: (readonly [string | null, number])[] = [
    ...COMMON_PERSONAS.map((name) => [name, 45 / COMMON_PERSONAS.length] as const),
    ...rarer.map((name) => [name, 25 / rarer.length] as const),
  ];
  const personaSlots = slots<string | null>([...personaWeights, [null, 30]]);
  const random = seededRandom(7);
  const titleSlots = personaSlots.map((p) => p ?? OTHER_TITLES[Math.floor(random() * OTHER_TITLES.length)]!);
  const postings: Posting[] = [];
  for (const title of POSTING_TITLES) {
    for (const place of places.filter((_, i) => i % 4 === postings.length % 4).slice(0, 6)) {
      const location = `${place.city}, ${place.country}`;
      const tools = `${POSTING_TOOLS[postings.length % POSTING_TOOLS.length]} and ${POSTING_TOOLS[(postings.length * 3 + 1) % POSTING_TOOLS.length]}`;
      const profile = jobPostingProfile(title, location);
      postings.push({
        data: {
          job_offer_title: title,
          job_offer_location: location,
          job_offer_description: `We are hiring a ${title} in ${place.city}. You will work with ${tools}.`,
          job_offer_url: `https://jobs.example.com/${postings.length}`,
          job_offer_source: 'bench board',
        },
        ...profile,
      });
    }
  }
  return {
    places,
    placeSlots: slots(placeWeights),
    industrySlots,
    personaSlots,
    titleSlots,
    typeSlots: slots(EVENT_TYPE_WEIGHTS),
    postings,
  };
}

/** Log-uniform employee counts from 1 to 50,000 (many small companies, few large). */
const EMPLOYEES_SQL = `floor(exp(pg_temp.sd_u(g, 3) * ln(50000)))::int`;
const SIZE_BAND_SQL = (count: string) =>
  `CASE ${COMPANY_SIZE_BANDS.map((band) => {
    const { max } = bandRange(band);
    return max === null ? `ELSE '${band}'` : `WHEN ${count} <= ${max} THEN '${band}'`;
  }).join(' ')} END`;

/** What the bulk load reached: the section grows it in stages. */
export interface StoreSize {
  companies: number;
  people: number;
  events: number;
}

export interface LoadTimes {
  companiesMs: number;
  peopleMs: number;
  eventsMs: number;
  vacuumMs: number;
}

/**
 * Grows the store from `from` to `to` rows in SQL (generate_series, deterministic hashes).
 * `tracksChanges`: when the service tracks changes (`change_xid`), the history is marked as
 * changed before every signal's watermark, as read by a first full read; signals evaluating
 * during the load then never take it for new events.
 */
export async function growStore(
  db: PgClient,
  shape: StoreShape,
  from: StoreSize,
  to: StoreSize,
  tracksChanges: boolean,
  log: (line: string) => void,
): Promise<LoadTimes> {
  // Uniform [0, 1) from a row number and a salt: the same store on every run.
  await db.query(`CREATE OR REPLACE FUNCTION pg_temp.sd_u(x bigint, salt int) RETURNS float8 IMMUTABLE LANGUAGE sql
    AS $$ SELECT (hashint8(x * 1000003 + salt) & 2147483647)::float8 / 2147483648 $$`);
  // A person's company, so an event about the person happens at the company they work at.
  await db.query(`CREATE OR REPLACE FUNCTION pg_temp.sd_company_of(p bigint, n int) RETURNS bigint IMMUTABLE LANGUAGE sql
    AS $$ SELECT floor(pg_temp.sd_u(p, 11) * n)::bigint $$`);
  const seen = tracksChanges ? `, '3'::xid8` : '';
  const seenColumn = tracksChanges ? ', change_xid' : '';
  const pick = (array: string, salt: number) => `(${array})[1 + floor(pg_temp.sd_u(g, ${salt}) * ${SLOTS})::int]`;
  const times: LoadTimes = { companiesMs: 0, peopleMs: 0, eventsMs: 0, vacuumMs: 0 };
  // Consistent by construction (every event's company and person exist), so the per-row
  // foreign-key checks are skipped for this session, as the evaluation section does.
  await db.query(`SET session_replication_role = replica`);
  try {
    let started = performance.now();
    if (to.companies > from.companies) {
      await db.query(
        `INSERT INTO companies (id, name, name_key, domain, linkedin_url, industry, employee_count, size_band, hq_country_code,
                                hq_city, description, company_type, founded_year, tech_stack${seenColumn})
         SELECT 'sd-co-' || g, 'Scale Co ' || g, 'scale co ' || g, 'sdco' || g || '.com',
                'https://www.linkedin.com/company/sdco' || g, ${pick('$3::text[]', 1)}, x.employees,
                ${SIZE_BAND_SQL('x.employees')}, ($4::text[])[x.place], ($5::text[])[x.place],
                'A company of the scale bench.', 'Privately Held', 1950 + g % 75, ARRAY['React', 'PostgreSQL']${seen}
         FROM generate_series($1::bigint, $2::bigint) g,
              LATERAL (SELECT ${EMPLOYEES_SQL} AS employees, 1 + (${pick('$6::int[]', 2)}) AS place) x`,
        [
          from.companies,
          to.companies - 1,
          shape.industrySlots,
          shape.places.map((p) => p.countryCode),
          shape.places.map((p) => p.city),
          shape.placeSlots,
        ],
      );
    }
    times.companiesMs = performance.now() - started;
    log(`  ${to.companies.toLocaleString('en-US')} companies (${(times.companiesMs / 1000).toFixed(1)} s)`);

    started = performance.now();
    for (let a = from.people; a < to.people; a += CHUNK) {
      const b = Math.min(to.people, a + CHUNK) - 1;
      // People live where their company is (its headquarters' country and city).
      await db.query(
        `INSERT INTO people (id, first_name, last_name, title, persona, company_id, linkedin_url, city, country_code,
                             started_on${seenColumn})
         SELECT 'sd-pe-' || g, 'Ada', 'Scale' || g, x.title, x.persona, c.id, 'https://www.linkedin.com/in/sdpe' || g,
                c.hq_city, c.hq_country_code, '2026-01'${seen}
         FROM generate_series($1::bigint, $2::bigint) g,
              LATERAL (SELECT 1 + floor(pg_temp.sd_u(g, 12) * ${SLOTS})::int AS slot) s,
              LATERAL (SELECT ($4::text[])[s.slot] AS persona, ($5::text[])[s.slot] AS title) x,
              companies c
         WHERE c.id = 'sd-co-' || pg_temp.sd_company_of(g, $3::int)`,
        [a, b, to.companies, shape.personaSlots, shape.titleSlots],
      );
      if ((b + 1 - from.people) % (CHUNK * 4) === 0 || b + 1 === to.people)
        log(`  ${(b + 1).toLocaleString('en-US')} people`);
    }
    times.peopleMs = performance.now() - started;

    started = performance.now();
    const postingArgs = [
      shape.postings.map((p) => JSON.stringify(p.data)),
      shape.postings.map((p) => p.department),
      shape.postings.map((p) => p.seniority),
      shape.postings.map((p) => p.countryCode),
      shape.postings.map((p) => p.regionCode),
      shape.postings.map((p) => p.city),
    ];
    for (let a = from.events; a < to.events; a += CHUNK) {
      const b = Math.min(to.events, a + CHUNK) - 1;
      await db.query(
        `INSERT INTO events (id, type, occurred_at, company_id, person_id, data, job_department, job_seniority,
                             job_country_code, job_region_code, job_city${seenColumn})
         SELECT 'sd-ev-' || g, x.type, x.occurred_at,
                'sd-co-' || CASE WHEN x.personal THEN pg_temp.sd_company_of(x.p, $4::int)
                                 ELSE floor(pg_temp.sd_u(g, 23) * $4::int)::bigint END,
                CASE WHEN x.personal THEN 'sd-pe-' || x.p END,
                CASE WHEN x.type = 'job_change' THEN jsonb_build_object(
                       'previous_title', 'Consultant', 'previous_company', 'Globex', 'new_title', 'Manager',
                       'new_company', 'Scale Co', 'new_job_started_on', to_char(x.occurred_at, 'MM/YYYY'),
                       'new_job_start_month', to_char(x.occurred_at, 'YYYY-MM'), 'change_type', 'company')
                     WHEN x.posting THEN ($7::text[])[x.k]::jsonb
                       || jsonb_build_object('job_offer_published_date', to_char(x.occurred_at, 'YYYY-MM-DD'))
                     WHEN x.type = 'fundraising' THEN jsonb_build_object(
                       'funding_type', ($6::text[])[1 + floor(pg_temp.sd_u(g, 27) * cardinality($6::text[]))::int],
                       'funding_amount_usd', round(exp(ln(100000) + pg_temp.sd_u(g, 26) * ln(10000))),
                       'announcement_date', to_char(x.occurred_at, 'YYYY-MM-DD'))
                     WHEN x.type = 'company_news' THEN jsonb_build_object(
                       'news_event_type', 'expansion', 'news_headline', 'Scale Co ' || g || ' opens an office',
                       'news_url', 'https://news.example.com/' || g, 'news_event_date', to_char(x.occurred_at, 'YYYY-MM-DD'))
                     ELSE jsonb_build_object('post_url', 'https://posts.example.com/' || g,
                       'post_date', to_char(x.occurred_at, 'YYYY-MM-DD'))
                END,
                CASE WHEN x.posting THEN ($8::text[])[x.k] END, CASE WHEN x.posting THEN ($9::text[])[x.k] END,
                CASE WHEN x.posting THEN ($10::text[])[x.k] END, CASE WHEN x.posting THEN ($11::text[])[x.k] END,
                CASE WHEN x.posting THEN ($12::text[])[x.k] END${seen}
         FROM generate_series($1::bigint, $2::bigint) g,
              LATERAL (SELECT ${pick('$5::text[]', 21)} AS type) t,
              LATERAL (SELECT t.type, t.type = ANY($13::text[]) AS personal,
                              t.type IN ('job_offers', 'recruitment_campaign') AS posting,
                              floor(pg_temp.sd_u(g, 22) * $3::int)::bigint AS p,
                              1 + floor(pg_temp.sd_u(g, 25) * cardinality($7::text[]))::int AS k,
                              now() - pg_temp.sd_u(g, 24) * interval '365 days' AS occurred_at) x`,
        [
          a,
          b,
          to.people,
          to.companies,
          shape.typeSlots,
          [...FUNDING_STAGES],
          ...postingArgs,
          ['job_change', ...PERSON_LEVEL_WATCHLIST_EVENTS],
        ],
      );
      if ((b + 1 - from.events) % (CHUNK * 4) === 0 || b + 1 === to.events)
        log(`  ${(b + 1).toLocaleString('en-US')} events (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    times.eventsMs = performance.now() - started;
  } finally {
    await db.query(`SET session_replication_role = DEFAULT`);
  }
  const started = performance.now();
  await db.query(`VACUUM ANALYZE companies, people, events`);
  times.vacuumMs = performance.now() - started;
  return times;
}

/** One tick's records for `POST /admin/v1/ingest` (NDJSON), and the people and companies a source updated meanwhile. */
export interface Arrivals {
  ndjson: string;
  events: number;
  /** The new events' ids, in the order sent. */
  eventIds: string[];
  late: number;
  updatedPeople: string[];
  updatedCompanies: string[];
}

/**
 * New records as a provider sends them: events of the history's kinds, dated within the last
 * hour, except 3 % late ones (30–170 days old); job changes come with their person's new record.
 * `personCompany` answers the company of stored people, so their events happen there.
 */
export async function arrivalsOf(
  shape: StoreShape,
  size: StoreSize,
  count: number,
  seq: { next: number },
  random: () => number,
  personCompany: (ids: string[]) => Promise<Map<string, string>>,
): Promise<Arrivals> {
  const pickOf = <T>(array: readonly T[]) => array[Math.floor(random() * array.length)]!;
  const company = () => `sd-co-${Math.floor(random() * size.companies)}`;
  const lines: unknown[] = [];
  const personal = new Set<string>(PERSON_LEVEL_WATCHLIST_EVENTS);
  const drafts: { type: string; personId?: string }[] = [];
  for (let i = 0; i < count; i++) {
    const type = pickOf(shape.typeSlots);
    drafts.push(personal.has(type) ? { type, personId: `sd-pe-${Math.floor(random() * size.people)}` } : { type });
  }
  const companies = await personCompany(drafts.flatMap((d) => (d.personId ? [d.personId] : [])));
  let late = 0;
  for (const draft of drafts) {
    const n = seq.next++;
    const isLate = random() < 0.03;
    if (isLate) late++;
    const occurredAt = new Date(Date.now() - (isLate ? (30 + random() * 140) * 86_400_000 : random() * 3_600_000));
    const day = occurredAt.toISOString().slice(0, 10);
    let companyId = draft.personId ? (companies.get(draft.personId) ?? company()) : company();
    let personId = draft.personId ?? null;
    let data: Record<string, unknown> = {};
    if (draft.type === 'job_change') {
      companyId = company();
      personId = `sd-pe-a${n}`;
      const slot = Math.floor(random() * shape.personaSlots.length);
      const place = shape.places[pickOf(shape.placeSlots)]!;
      lines.push({
        kind: 'person',
        id: personId,
        firstName: 'Ada',
        lastName: `Arrival${n}`,
        title: shape.titleSlots[slot],
        companyId,
        linkedinUrl: `https://www.linkedin.com/in/sdpea${n}`,
        city: place.city,
        countryCode: place.countryCode,
        startedOn: occurredAt.toISOString().slice(0, 7),
      });
      const [year, month] = [occurredAt.getUTCFullYear(), String(occurredAt.getUTCMonth() + 1).padStart(2, '0')];
      data = {
        previous_title: 'Consultant',
        previous_company: 'Globex',
        new_title: shape.titleSlots[slot],
        new_company: 'Scale Co',
        new_job_started_on: `${month}/${year}`,
        new_job_start_month: `${year}-${month}`,
        change_type: 'company',
      };
    } else if (draft.type === 'job_offers' || draft.type === 'recruitment_campaign') {
      data = { ...pickOf(shape.postings).data, job_offer_published_date: day };
    } else if (draft.type === 'fundraising') {
      data = {
        funding_type: pickOf(FUNDING_STAGES),
        funding_amount_usd: Math.round(Math.exp(Math.log(100_000) + random() * Math.log(10_000))),
        announcement_date: day,
      };
    } else if (draft.type === 'company_news') {
      data = { news_event_type: 'expansion', news_headline: `Arrival ${n} opens an office`, news_event_date: day };
    } else data = { post_url: `https://posts.example.com/a${n}`, post_date: day };
    lines.push({
      kind: 'event',
      id: `sd-ev-a${n}`,
      type: draft.type,
      occurredAt: occurredAt.toISOString(),
      companyId,
      personId,
      data,
    });
  }
  // A source's word on stored records: 2 % of the tick's count each of people and companies.
  const updates = Math.max(1, Math.round(count * 0.02));
  return {
    ndjson: lines.map((line) => JSON.stringify(line)).join('\n'),
    events: count,
    eventIds: lines.flatMap((line) =>
      (line as { kind: string }).kind === 'event' ? [(line as { id: string }).id] : [],
    ),
    late,
    updatedPeople: Array.from({ length: updates }, () => `sd-pe-${Math.floor(random() * size.people)}`),
    updatedCompanies: Array.from({ length: updates }, company),
  };
}

/** A source's update of stored people (a new title) and companies (a new headcount), in SQL as sources write them. */
export async function applyUpdates(db: PgClient, shape: StoreShape, arrivals: Arrivals): Promise<void> {
  await db.query(
    `UPDATE people p SET persona = ($2::text[])[x.slot], title = ($3::text[])[x.slot]
     FROM (SELECT id, 1 + floor(random() * ${SLOTS})::int AS slot FROM unnest($1::text[]) id) x WHERE p.id = x.id`,
    [arrivals.updatedPeople, shape.personaSlots, shape.titleSlots],
  );
  await db.query(
    `UPDATE companies SET employee_count = x.employees, size_band = ${SIZE_BAND_SQL('x.employees')}
     FROM (SELECT c.id, (c.employee_count * 1.3 + 1)::int AS employees FROM companies c WHERE c.id = ANY($1::text[])) x
     WHERE companies.id = x.id`,
    [arrivals.updatedCompanies],
  );
}
