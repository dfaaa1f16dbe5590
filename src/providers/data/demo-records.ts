/**
 * The demo generator's records: fictional companies, people and intent events that look like a
 * data vendor's feed. Everything comes from the service's own catalogues (industry taxonomy,
 * gazetteer, size bands, persona titles, technographic tools, event vocabulary) so that every
 * filter a client can set finds something to match.
 *
 * Each history record is generated from its own seed ([seed, stream, number]), so record n is
 * the same whatever else is generated: a restart regenerates identical records with identical
 * ids, and ingestion counts them as duplicates.
 */
import { Faker, base, en } from '@faker-js/faker';
import { COMPANY_SIZE_BANDS, bandRange, type CompanySizeBand } from '../../catalogue/company-sizes';
import { findIndustry, industriesInCategory, isKnownIndustry } from '../../catalogue/industries';
import { citiesOf, countryName, majorCitiesOf, type GazetteerCity } from '../../catalogue/locations';
import { listPersonas, matchPersona, type Persona, type Seniority } from '../../catalogue/personas';
import { listTechnographicTools } from '../../catalogue/technographics';
import { NEWS_EVENT_LABELS, NEWS_EVENT_TYPES } from '../../catalogue/watchlist-events';
import type { CompanyRecordInput, EventRecordInput, EventType, IngestRecordInput, PersonRecordInput } from './records';

export const DEMO_SEED = 20241122;

export const DEMO_HISTORY = { companies: 300, people: 1500, events: 1200, days: 120 } as const;

/** Demo companies' domains are made up and may be someone's real site: the company-profiles source never reads them. */
export const DEMO_COMPANY_ID_PREFIX = 'demo-company-';
export const demoCompanyId = (n: number) => `${DEMO_COMPANY_ID_PREFIX}${n}`;
export const demoPersonId = (n: number) => `demo-person-${n}`;
export const demoEventId = (n: number) => `demo-event-${n}`;
/** Live events are numbered within their tick; the tick's instant keeps them apart across restarts. */
export const demoLiveEventId = (at: Date, i: number) => `demo-event-live-${at.getTime()}-${i}`;

/** What an event needs to know about its company: the fields of a stored row. */
export interface DemoCompanyRef {
  id: string;
  name: string;
  domain: string | null;
  industry: string | null;
  employeeCount: number | null;
  hqCity: string | null;
  hqCountryCode: string | null;
}

export interface DemoPersonRef {
  id: string;
  firstName: string;
  lastName: string;
  title: string;
  /** `YYYY-MM`. */
  startedOn: string | null;
  company: DemoCompanyRef;
}

const DAY_MS = 86_400_000;

// --- Companies -------------------------------------------------------------------------------

// B2B buyers mostly target these; the long tail keeps every category represented.
const CATEGORY_WEIGHTS: readonly [string, number][] = [
  ['Technology, Information and Media', 30],
  ['Professional Services', 15],
  ['Financial Services', 11],
  ['Manufacturing', 9],
  ['Hospitals and Health Care', 7],
  ['Retail', 5],
  ['Education', 4],
  ['Transportation, Logistics, Supply Chain and Storage', 4],
  ['Wholesale', 2],
  ['Real Estate and Equipment Rental Services', 2],
  ['Construction', 2],
  ['Utilities', 2],
  ['Consumer Services', 1],
  ['Entertainment Providers', 1],
  ['Accommodation Services', 1],
  ['Administrative and Support Services', 1],
  ['Oil, Gas, and Mining', 1],
  ['Government Administration', 1],
  ['Farming, Ranching, Forestry', 1],
  ['Holding Companies', 1],
];

// The industries vendors tag most companies of a category with.
const COMMON_INDUSTRIES: Readonly<Record<string, readonly string[]>> = {
  'Technology, Information and Media': [
    'Software Development',
    'Technology, Information and Internet',
    'Data Infrastructure and Analytics',
    'Business Intelligence Platforms',
    'Internet Marketplace Platforms',
    'Telecommunications',
  ],
  'Professional Services': [
    'IT Services and IT Consulting',
    'Business Consulting and Services',
    'Computer and Network Security',
    'Marketing Services',
    'Advertising Services',
    'Legal Services',
    'Accounting',
  ],
  'Financial Services': [
    'Financial Services',
    'Banking',
    'Insurance',
    'Investment Management',
    'Venture Capital and Private Equity Principals',
    'Capital Markets',
  ],
  'Hospitals and Health Care': [
    'Hospitals and Health Care',
    'Hospitals',
    'Medical Practices',
    'Medical and Diagnostic Laboratories',
    'Mental Health Care',
  ],
};

const NAME_SUFFIXES: Readonly<Record<string, readonly string[]>> = {
  'Technology, Information and Media': ['Labs', 'Software', 'AI', 'Cloud', 'Data', 'Technologies', 'Systems', 'Media'],
  'Professional Services': ['Consulting', 'Partners', 'Advisory', 'Group', 'Solutions', 'Security'],
  'Financial Services': ['Capital', 'Financial', 'Pay', 'Bank', 'Insurance', 'Ventures'],
  Manufacturing: ['Industries', 'Manufacturing', 'Robotics', 'Materials', 'Devices'],
  'Hospitals and Health Care': ['Health', 'Care', 'Medical', 'Clinics', 'Therapeutics'],
  Retail: ['Store', 'Retail', 'Market', 'Goods'],
  Education: ['Academy', 'Learning', 'Institute', 'Education'],
  'Transportation, Logistics, Supply Chain and Storage': ['Logistics', 'Freight', 'Mobility', 'Transport'],
  Utilities: ['Energy', 'Power', 'Utilities', 'Renewables'],
};
const DEFAULT_SUFFIXES = ['Group', 'Company', 'Services', 'Holdings', 'Co'];

const NAME_PREFIXES = [
  'Bright',
  'North',
  'Blue',
  'Clear',
  'Silver',
  'Iron',
  'Swift',
  'True',
  'Open',
  'Deep',
  'Bold',
  'Prime',
  'Nova',
  'Terra',
  'Aero',
  'Quantum',
  'Vertex',
  'Cloud',
  'Lumen',
  'Hyper',
  'Crest',
  'Arc',
  'Echo',
  'Pulse',
  'Stone',
  'Green',
  'Red',
  'Cedar',
  'Maple',
  'Oak',
  'Pine',
  'River',
  'Sky',
  'Sun',
  'Star',
  'Polar',
  'Summit',
  'Harbor',
  'Atlas',
  'Orbit',
  'Vivid',
  'Zen',
  'Fusion',
  'Signal',
  'Beacon',
  'Cobalt',
  'Amber',
  'Coral',
  'Granite',
  'Wild',
];
const NAME_ROOTS = [
  'wave',
  'peak',
  'path',
  'stack',
  'bridge',
  'forge',
  'field',
  'point',
  'line',
  'gate',
  'works',
  'mind',
  'flow',
  'base',
  'core',
  'scale',
  'shift',
  'light',
  'grid',
  'loop',
  'craft',
  'spring',
  'stream',
  'hub',
  'nest',
  'port',
  'rock',
  'vale',
  'wood',
  'ridge',
  'view',
  'wing',
  'spark',
  'sense',
  'leaf',
  'tide',
  'bay',
  'mark',
  'form',
  'logic',
  'metric',
  'vector',
  'layer',
  'sphere',
  'cast',
  'link',
  'dock',
  'yard',
  'well',
  'land',
];
const NAME_SPACE = NAME_PREFIXES.length * NAME_ROOTS.length;
// Coprime with NAME_SPACE, so n → (n * step) mod space visits every name once before repeating.
const NAME_STEP = 1009;

/** Unique for the first NAME_SPACE companies; later generations carry a number. */
function brandOf(n: number): { brand: string; slug: string } {
  const index = (n * NAME_STEP + 17) % NAME_SPACE;
  const generation = Math.floor(n / NAME_SPACE);
  const brand = NAME_PREFIXES[Math.floor(index / NAME_ROOTS.length)] + NAME_ROOTS[index % NAME_ROOTS.length];
  const numbered = generation > 0 ? `${brand} ${generation + 1}` : brand;
  return { brand: numbered, slug: numbered.toLowerCase().replace(/[^a-z0-9]+/g, '') };
}

// Markets weighted roughly by B2B data volume; every one has curated major cities.
const COUNTRY_WEIGHTS: readonly [string, number][] = [
  ['US', 40],
  ['GB', 12],
  ['DE', 8],
  ['FR', 7],
  ['CA', 5],
  ['NL', 4],
  ['AU', 4],
  ['ES', 3],
  ['IN', 3],
  ['IT', 2],
  ['SE', 2],
  ['IE', 2],
  ['CH', 2],
  ['IL', 1],
  ['BR', 1],
  ['DK', 1],
  ['PL', 1],
  ['BE', 1],
  ['MX', 1],
  ['JP', 1],
  ['AE', 1],
  ['PT', 1],
  ['NZ', 1],
  ['ZA', 1],
];

const COUNTRY_TLDS: Readonly<Record<string, string>> = {
  GB: 'co.uk',
  DE: 'de',
  FR: 'fr',
  NL: 'nl',
  ES: 'es',
  IT: 'it',
  SE: 'se',
  IE: 'ie',
  CH: 'ch',
  DK: 'dk',
  PL: 'pl',
  BE: 'be',
  AU: 'com.au',
  IN: 'in',
  BR: 'com.br',
  MX: 'mx',
  JP: 'jp',
  NZ: 'co.nz',
  ZA: 'co.za',
  PT: 'pt',
};

const SIZE_WEIGHTS: Readonly<Record<CompanySizeBand, number>> = {
  'Self-employed': 2,
  '1-10': 10,
  '11-50': 24,
  '51-200': 24,
  '201-500': 15,
  '501-1000': 9,
  '1001-5000': 9,
  '5001-10000': 4,
  '10001+': 3,
};

const TOOLS = listTechnographicTools().map((tool) => tool.name);

// --- People ----------------------------------------------------------------------------------

const PERSONAS = listPersonas();
const SENIORITY_WEIGHTS: Readonly<Record<Seniority, number>> = {
  founder: 6,
  c_level: 12,
  vp: 14,
  director: 20,
  manager: 24,
  individual_contributor: 24,
};
const DECISION_MAKERS: ReadonlySet<Seniority> = new Set(['founder', 'c_level', 'vp', 'director']);
const REGION_SUFFIXES = ['EMEA', 'North America', 'DACH', 'Europe', 'APAC', 'UK&I'];

// --- Events ----------------------------------------------------------------------------------

/** Shares of the history, summing to DEMO_HISTORY.events; `competitor_connections` is quiet, as the spec says. */
const HISTORY_EVENT_COUNTS: Readonly<Record<EventType, number>> = {
  job_change: 200,
  fundraising: 90,
  mergers_acquisitions: 40,
  forecasted_funding: 50,
  forecasted_ipo: 20,
  forecasted_acquisition: 30,
  forecasted_growth: 60,
  public_tenders: 40,
  job_offers: 220,
  recruitment_campaign: 60,
  new_decision_makers: 100,
  company_post_reactions: 110,
  competitor_social_reactions: 80,
  competitor_connections: 20,
  company_news: 80,
};
export const DEMO_EVENT_TYPES = Object.keys(HISTORY_EVENT_COUNTS) as EventType[];

const ROUNDS: Readonly<Record<string, [number, number]>> = {
  'Pre-Seed': [0.2, 2],
  Seed: [1, 6],
  'Series A': [5, 25],
  'Series B': [15, 60],
  'Series C': [30, 120],
  'Series D': [50, 250],
  'Series E': [100, 400],
  'Debt Financing': [5, 200],
  'Private Equity': [20, 500],
  Grant: [0.1, 3],
};
const DEAL_TYPES = ['Acquisition', 'Merger', 'Majority Stake Acquisition', 'Asset Acquisition', 'Acqui-hire'];
const JOB_SOURCES = ['LinkedIn', 'Indeed', 'Glassdoor', 'Welcome to the Jungle', 'StepStone', 'Company website'];
const ENGAGEMENTS = ['like', 'comment', 'share', 'celebrate', 'support', 'insightful'];
const PUBLISHERS: readonly [string, string][] = [
  ['techcrunch.com', 'TechCrunch'],
  ['businesswire.com', 'Business Wire'],
  ['prnewswire.com', 'PR Newswire'],
  ['reuters.com', 'Reuters'],
  ['sifted.eu', 'Sifted'],
  ['finextra.com', 'Finextra'],
];
const TRADE_SHOWS: readonly [string, string][] = [
  ['Web Summit', 'Lisbon, Portugal'],
  ['SaaStr Annual', 'San Mateo, United States'],
  ['Dreamforce', 'San Francisco, United States'],
  ['VivaTech', 'Paris, France'],
  ['Slush', 'Helsinki, Finland'],
  ['Hannover Messe', 'Hannover, Germany'],
  ['CES', 'Las Vegas, United States'],
  ['Money20/20 Europe', 'Amsterdam, Netherlands'],
  ['MWC Barcelona', 'Barcelona, Spain'],
  ['AWS re:Invent', 'Las Vegas, United States'],
  ['RSA Conference', 'San Francisco, United States'],
  ['HIMSS Global Health Conference', 'Orlando, United States'],
];
const FOCUS_AREAS = [
  'its core platform',
  'enterprise customers',
  'profitability',
  'AI products',
  'its European business',
  'North America',
];

/** A sentence's full stop, unless its last word brings one ("Washington, D.C."). */
const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);
const day = (at: Date) => at.toISOString().slice(0, 10);
const month = (at: Date) => at.toISOString().slice(0, 7);
const slashMonth = (yearMonth: string) => `${yearMonth.slice(5, 7)}/${yearMonth.slice(0, 4)}`;
const ascii = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();
const slugOf = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The generator. One instance keeps one Faker, re-seeded for every record. */
export class DemoRecords {
  private readonly faker = new Faker({ locale: [en, base] });

  constructor(private readonly seed = DEMO_SEED) {}

  private seeded(stream: number, n: number): Faker {
    this.faker.seed([this.seed, stream, n]);
    return this.faker;
  }

  private weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    return this.faker.helpers.weightedArrayElement(pairs.map(([value, weight]) => ({ value, weight })));
  }

  /** Company n: the same record every time. */
  company(n: number): CompanyRecordInput {
    const f = this.seeded(1, n);
    const category = this.weighted(CATEGORY_WEIGHTS);
    const common = (COMMON_INDUSTRIES[category] ?? []).filter(isKnownIndustry);
    const industry =
      common.length && f.datatype.boolean(0.6)
        ? f.helpers.arrayElement(common)
        : f.helpers.arrayElement([category, ...industriesInCategory(category)]);
    const band = this.weighted(COMPANY_SIZE_BANDS.map((b) => [b, SIZE_WEIGHTS[b]] as const));
    const range = bandRange(band);
    const employeeCount = f.number.int({ min: Math.max(range.min, 1), max: range.max ?? 80_000 });
    const countryCode = this.weighted(COUNTRY_WEIGHTS);
    const city = this.city(countryCode, 0.85);
    const { brand, slug } = brandOf(n);
    const name = `${brand} ${f.helpers.arrayElement(NAME_SUFFIXES[category] ?? DEFAULT_SUFFIXES)}`;
    const tld =
      COUNTRY_TLDS[countryCode] && f.datatype.boolean(0.6)
        ? COUNTRY_TLDS[countryCode]
        : category.startsWith('Technology')
          ? f.helpers.arrayElement(['com', 'io', 'ai'])
          : 'com';
    const large = employeeCount > 1000;
    const companyType =
      band === 'Self-employed'
        ? 'Self-Employed'
        : category === 'Education' && f.datatype.boolean(0.5)
          ? 'Educational Institution'
          : category === 'Government Administration'
            ? 'Government Agency'
            : large && f.datatype.boolean(0.4)
              ? 'Public Company'
              : f.helpers.weightedArrayElement([
                  { value: 'Privately Held', weight: 90 },
                  { value: 'Partnership', weight: 6 },
                  { value: 'Nonprofit', weight: 4 },
                ]);
    const foundedYear = large ? f.number.int({ min: 1920, max: 2012 }) : f.number.int({ min: 2004, max: 2023 });
    const industryLabel = findIndustry(industry)?.name ?? industry;
    const catchPhrase = f.company.catchPhrase();
    return {
      kind: 'company',
      id: demoCompanyId(n),
      name,
      domain: `${slug}.${tld}`,
      linkedinUrl: `https://www.linkedin.com/company/${slugOf(name)}`,
      industry: industryLabel,
      employeeCount,
      hqCountryCode: countryCode,
      hqCity: city.name,
      description: `${name} (${industryLabel}) is headquartered in ${city.name}, ${countryName(countryCode)}. ${catchPhrase}.`,
      companyType,
      foundedYear,
      techStack: f.helpers.arrayElements(
        TOOLS,
        category.startsWith('Technology') ? { min: 5, max: 12 } : { min: 2, max: 6 },
      ),
      // What the homepage says of itself, as an enrichment crawl reads it.
      homepageTitle: `${name} | ${industryLabel}`,
      metaDescription: sentence(`${catchPhrase}. ${name}, ${city.name}`),
    };
  }

  /** Mostly a curated business city, sometimes any real city of the country. */
  private city(countryCode: string, majorShare: number): GazetteerCity {
    const major = majorCitiesOf(countryCode);
    if (major.length && this.faker.datatype.boolean(majorShare)) return this.faker.helpers.arrayElement(major);
    const all = someCitiesOf(countryCode);
    return this.faker.helpers.arrayElement(all.length ? all : major);
  }

  /**
   * The role before a job change, in the new role's department ("Data Scientist → VP Data", not
   * "Deep Learning Engineer → VP Enterprise Sales"): the drawn persona's place among that
   * department's personas, so the generator draws nothing more and every later record stays as it was.
   */
  private earlierRole(drawn: Persona, person: DemoPersonRef | undefined): Persona {
    const department = person ? matchPersona(person.title)?.department : undefined;
    const same = department ? PERSONAS.filter((p) => p.department === department) : [];
    return same.length ? same[PERSONAS.indexOf(drawn) % same.length]! : drawn;
  }

  private persona(f: Faker, decisionMaker = false): Persona {
    const seniority = this.weighted(
      (Object.entries(SENIORITY_WEIGHTS) as [Seniority, number][]).filter(
        ([s]) => !decisionMaker || DECISION_MAKERS.has(s),
      ),
    );
    return f.helpers.arrayElement(PERSONAS.filter((p) => p.seniority === seniority));
  }

  /** A title the persona catalogue knows, sometimes dressed the way real profiles are. */
  private title(f: Faker, persona: Persona): string {
    const title = f.helpers.arrayElement(persona.titles);
    const dress = f.number.int({ min: 0, max: 9 });
    if (dress === 0 && persona.seniority === 'individual_contributor' && !/^senior /i.test(title))
      return `Senior ${title}`;
    if (dress === 1 && ['sales', 'marketing'].includes(persona.department))
      return `${title}, ${f.helpers.arrayElement(REGION_SUFFIXES)}`;
    return title;
  }

  /**
   * Person n at a company. `startedOn` fixes the month they started (live joiners); otherwise
   * about a third started within the last four months, so job changes have people to be about.
   */
  person(
    n: number,
    company: DemoCompanyRef,
    now: Date,
    options: { startedOn?: string; decisionMaker?: boolean } = {},
  ): PersonRecordInput {
    const f = this.seeded(2, n);
    const persona = this.persona(f, options.decisionMaker);
    const title = this.title(f, persona);
    const firstName = f.person.firstName();
    const lastName = f.person.lastName();
    const hqCountry = company.hqCountryCode ?? 'US';
    const where = f.number.int({ min: 0, max: 9 });
    const countryCode = where < 8 ? hqCountry : this.weighted(COUNTRY_WEIGHTS);
    const hq = company.hqCity
      ? (majorCitiesOf(hqCountry).find((c) => c.name === company.hqCity) ?? { name: company.hqCity, region: '' })
      : undefined;
    const city = where < 5 && hq ? hq : this.city(countryCode, 0.9);
    const region = city.region && city.region !== city.name ? `${city.region}, ` : '';
    const monthsAgo = f.datatype.boolean(0.33) ? f.number.int({ min: 0, max: 3 }) : f.number.int({ min: 4, max: 60 });
    const started = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1));
    const emailDomain = company.domain ?? `${ascii(company.name)}.com`;
    const profileId = f.string.hexadecimal({ length: 6, casing: 'lower', prefix: '' });
    return {
      kind: 'person',
      id: demoPersonId(n),
      firstName,
      lastName,
      title,
      companyId: company.id,
      linkedinUrl: `https://www.linkedin.com/in/${slugOf(`${firstName} ${lastName}`)}-${profileId}`,
      salesNavigatorProfileUrl: `https://www.linkedin.com/sales/lead/ACwAA${profileId.toUpperCase()},NAME_SEARCH`,
      email: f.datatype.boolean(0.8) ? `${ascii(firstName)}.${ascii(lastName)}@${emailDomain}` : null,
      phone: f.datatype.boolean(0.5) ? f.phone.number({ style: 'international' }) : null,
      location: `${city.name}, ${region}${countryName(countryCode)}`,
      city: city.name,
      countryCode,
      startedOn: options.startedOn ?? month(started),
    };
  }

  /**
   * The history a fresh store starts with: DEMO_HISTORY.companies companies, people spread over
   * them by size, and events of every type spread over the last DEMO_HISTORY.days days.
   */
  history(
    now: Date,
    size: { companies: number; people: number; events: number; days: number } = DEMO_HISTORY,
  ): IngestRecordInput[] {
    const companies = Array.from({ length: size.companies }, (_, n) => this.company(n));
    const refs = companies.map(companyRef);
    const weights = companies.map((c) => 1 + 2 * Math.log10((c.employeeCount ?? 0) + 1));
    const people: DemoPersonRef[] = [];
    const records: IngestRecordInput[] = [...companies];
    for (let n = 0; n < size.people; n++) {
      this.seeded(4, n);
      // The first person of each company guarantees nobody is empty; the rest follow size.
      const company =
        n < refs.length
          ? refs[n]
          : this.faker.helpers.weightedArrayElement(refs.map((value, i) => ({ value, weight: weights[i] })));
      const record = this.person(n, company, now);
      records.push(record);
      people.push(personRef(record, company));
    }
    const from = now.getTime() - size.days * DAY_MS;
    const to = now.getTime() - 5 * 60_000;
    const recentJoiners = people.filter(
      (p) => p.startedOn && Date.parse(`${p.startedOn}-01T00:00:00Z`) + 31 * DAY_MS > from,
    );
    const recentDecisionMakers = recentJoiners.filter((p) => isDecisionMakerTitle(p.title));
    const types = spread(HISTORY_EVENT_COUNTS, size.events);
    types.forEach((type, k) => {
      const f = this.seeded(3, k);
      let at = new Date(f.number.int({ min: from, max: to }));
      let person: DemoPersonRef | undefined;
      if (type === 'job_change' || type === 'new_decision_makers') {
        const candidates = type === 'job_change' ? recentJoiners : recentDecisionMakers;
        person = f.helpers.arrayElement(candidates.length ? candidates : recentJoiners.length ? recentJoiners : people);
        at = withinMonth(f, person.startedOn, from, to) ?? at;
      } else if (PERSON_EVENTS.has(type)) {
        person = f.helpers.arrayElement(people);
      }
      const company = person?.company ?? f.helpers.arrayElement(refs);
      records.push(this.event(demoEventId(k), type, at, company, person));
    });
    return records;
  }

  /**
   * One live tick at `at`: a few joiners (each with their job change or new-decision-maker
   * event), now and then a new company, and events on known companies and people, all dated now.
   */
  tick(
    at: Date,
    pool: { companies: DemoCompanyRef[]; people: DemoPersonRef[] },
    next: { company: number; person: number },
  ): { records: IngestRecordInput[]; companies: number; people: number } {
    const f = this.seeded(9, at.getTime());
    const addCompany = f.datatype.boolean(0.35) || pool.companies.length === 0;
    const total = f.number.int({ min: 5, max: 20 });
    const joinerCount = f.number.int({ min: 1, max: 3 });
    // Generating a company or person re-seeds the Faker; the tick's own draws resume from here.
    const resume = f.number.int({ min: 0, max: 2 ** 31 });

    const records: IngestRecordInput[] = [];
    const companies = [...pool.companies];
    if (addCompany) {
      const company = this.company(next.company);
      records.push(company);
      companies.push(companyRef(company));
    }
    this.faker.seed([this.seed, 10, resume]);
    const plans = Array.from({ length: joinerCount }, () => ({
      company: this.faker.helpers.arrayElement(companies),
      decisionMaker: this.faker.datatype.boolean(0.3),
    }));
    const joiners = plans.map(({ company, decisionMaker }, i) => {
      const person = this.person(next.person + i, company, at, { startedOn: month(at), decisionMaker });
      records.push(person);
      return { person: personRef(person, company), decisionMaker };
    });

    this.faker.seed([this.seed, 11, resume]);
    const events: EventRecordInput[] = [];
    const eventAt = () => new Date(at.getTime() - this.faker.number.int({ min: 0, max: 15_000 }));
    for (const { person, decisionMaker } of joiners) {
      const type = decisionMaker ? 'new_decision_makers' : 'job_change';
      events.push(this.event(demoLiveEventId(at, events.length), type, eventAt(), person.company, person));
    }
    const liveTypes = DEMO_EVENT_TYPES.filter((t) => t !== 'job_change' && t !== 'new_decision_makers');
    const peoplePool = [...pool.people, ...joiners.map((j) => j.person)];
    while (events.length < total) {
      const type = this.weighted(liveTypes.map((t) => [t, HISTORY_EVENT_COUNTS[t]] as const));
      const person = PERSON_EVENTS.has(type) ? this.faker.helpers.arrayElement(peoplePool) : undefined;
      const company = person?.company ?? this.faker.helpers.arrayElement(companies);
      events.push(this.event(demoLiveEventId(at, events.length), type, eventAt(), company, person));
    }
    records.push(...events);
    return { records, companies: addCompany ? 1 : 0, people: joinerCount };
  }

  /** An event with the lead `signal` fields of its type, using the Faker's current state. */
  event(id: string, type: EventType, at: Date, company: DemoCompanyRef, person?: DemoPersonRef): EventRecordInput {
    const f = this.faker;
    const base = { kind: 'event' as const, id, type, occurredAt: at.toISOString(), companyId: company.id };
    const withPerson = person ? { ...base, personId: person.id } : base;
    return { ...withPerson, data: this.eventData(f, type, at, company, person) };
  }

  private eventData(
    f: Faker,
    type: EventType,
    at: Date,
    company: DemoCompanyRef,
    person?: DemoPersonRef,
  ): Record<string, string | number> {
    const date = day(at);
    switch (type) {
      case 'job_change': {
        const started = person?.startedOn ?? month(at);
        const previous = this.earlierRole(this.persona(f), person);
        return {
          previous_title: f.helpers.arrayElement(previous.titles),
          previous_company: `${brandOf(f.number.int({ min: 0, max: NAME_SPACE - 1 })).brand} ${f.helpers.arrayElement(DEFAULT_SUFFIXES)}`,
          new_title: person?.title ?? '',
          new_company: company.name,
          new_job_started_on: slashMonth(started),
          new_job_start_month: started,
          change_type: 'company',
        };
      }
      case 'new_decision_makers': {
        const started = person?.startedOn ?? month(at);
        return { new_job_started_on: slashMonth(started), new_job_start_month: started };
      }
      case 'fundraising': {
        const round = this.roundFor(f, company);
        return { funding_type: round, funding_amount_usd: this.amount(f, round), announcement_date: date };
      }
      case 'forecasted_funding': {
        const round = this.roundFor(f, company);
        return { funding_type: round, funding_amount_usd: this.amount(f, round) };
      }
      case 'mergers_acquisitions':
        return {
          deal_type: f.helpers.arrayElement(DEAL_TYPES),
          watchlist_role: (company.employeeCount ?? 0) > 500 && f.datatype.boolean(0.7) ? 'acquirer' : 'acquiree',
          announcement_date: date,
        };
      case 'forecasted_acquisition':
        return { deal_type: 'Acquisition', watchlist_role: 'acquiree' };
      case 'forecasted_ipo':
      case 'forecasted_growth':
        // The label says it all; the specification gives these forecasts no fields of their own.
        return {};
      case 'public_tenders': {
        const service = f.helpers.arrayElement([
          'cloud hosting services',
          'cybersecurity audit',
          'data platform modernisation',
          'managed IT services',
          'software licences',
          'facility management',
          'consulting services',
        ]);
        const authority = f.helpers.arrayElement([
          'Ministry of Health',
          'City Council',
          'Department of Transportation',
          'National Tax Agency',
          'Regional Hospital Trust',
          'Ministry of Defence',
        ]);
        const eu = ['DE', 'FR', 'NL', 'ES', 'IT', 'SE', 'IE', 'DK', 'PL', 'BE', 'PT'].includes(
          company.hqCountryCode ?? '',
        );
        return {
          news_title: `Contract award: ${service} for the ${authority}`,
          news_url: eu
            ? `https://ted.europa.eu/en/notice/-/detail/${f.number.int({ min: 100000, max: 999999 })}-${at.getUTCFullYear()}`
            : `https://sam.gov/opp/${f.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' })}/view`,
          news_summary: `${company.name} was awarded a ${f.number.int({ min: 1, max: 36 })}-month contract for ${service} by the ${authority}.`,
          announcement_date: date,
        };
      }
      case 'job_offers': {
        const role = this.persona(f);
        const title = f.helpers.arrayElement(role.titles);
        const source = f.helpers.arrayElement(JOB_SOURCES);
        const keywords = f.helpers.arrayElements(
          [role.department.replace(/_/g, ' '), ...f.helpers.arrayElements(TOOLS, 3)],
          { min: 2, max: 4 },
        );
        return {
          job_offer_url: jobUrl(f, source, company, title),
          job_offer_title: title,
          job_offer_location: f.datatype.boolean(0.2)
            ? 'Remote'
            : `${company.hqCity ?? 'Remote'}, ${countryName(company.hqCountryCode ?? 'US')}`,
          job_offer_description: `${company.name} is hiring a ${title} to ${f.company.buzzPhrase()}. You will work with ${keywords.slice(1).join(', ') || 'a modern stack'}.`,
          job_offer_source: source,
          job_offer_date: f.datatype.boolean(0.5) ? date : at.toISOString(),
          job_offer_published_date: date,
          matched_keywords: keywords.join(', '),
        };
      }
      case 'recruitment_campaign': {
        const department = f.helpers.arrayElement([
          'Engineering',
          'Sales',
          'Marketing',
          'Customer Success',
          'Operations',
          'Data',
        ]);
        const openings = f.number.int({ min: 8, max: 60 });
        return {
          job_offer_url: `https://${company.domain ?? 'example.com'}/careers?team=${slugOf(department)}`,
          job_offer_title: `${openings} open roles in ${department}`,
          job_offer_location: `${company.hqCity ?? 'Remote'}, ${countryName(company.hqCountryCode ?? 'US')}`,
          job_offer_description: `${company.name} is growing its ${department} team with ${openings} open positions this quarter.`,
          job_offer_source: 'Company website',
          job_offer_date: date,
          job_offer_published_date: date,
          matched_keywords: `${department.toLowerCase()}, hiring, team expansion`,
        };
      }
      case 'company_post_reactions':
      case 'competitor_social_reactions':
      case 'competitor_connections':
        return {
          post_url:
            type === 'competitor_connections'
              ? ''
              : `https://www.linkedin.com/feed/update/urn:li:activity:${f.string.numeric(19)}/`,
          post_date: day(new Date(at.getTime() - f.number.int({ min: 0, max: 3 }) * DAY_MS)),
          engagement_type: type === 'competitor_connections' ? 'connection' : f.helpers.arrayElement(ENGAGEMENTS),
        };
      case 'company_news':
        return this.news(f, at, company);
    }
  }

  private roundFor(f: Faker, company: DemoCompanyRef): string {
    const size = company.employeeCount ?? 50;
    if (size <= 10) return f.helpers.arrayElement(['Pre-Seed', 'Seed', 'Grant']);
    if (size <= 50) return f.helpers.arrayElement(['Seed', 'Series A', 'Series A']);
    if (size <= 200) return f.helpers.arrayElement(['Series A', 'Series B', 'Debt Financing']);
    if (size <= 1000) return f.helpers.arrayElement(['Series B', 'Series C', 'Series D', 'Debt Financing']);
    return f.helpers.arrayElement(['Series D', 'Series E', 'Private Equity', 'Debt Financing']);
  }

  /** Whole hundreds of thousands, as announcements round them. */
  private amount(f: Faker, round: string): number {
    const [min, max] = ROUNDS[round] ?? [1, 10];
    return Math.round(f.number.float({ min, max }) * 10) * 100_000;
  }

  private news(f: Faker, at: Date, company: DemoCompanyRef): Record<string, string | number> {
    const type = f.helpers.arrayElement(NEWS_EVENT_TYPES);
    const other = `${brandOf(f.number.int({ min: 0, max: NAME_SPACE - 1 })).brand} ${f.helpers.arrayElement(DEFAULT_SUFFIXES)}`;
    const [publisherDomain, publisher] = f.helpers.arrayElement(PUBLISHERS);
    const show = f.helpers.arrayElement(TRADE_SHOWS);
    const name = company.name;
    const headline = ((): string => {
      switch (type) {
        case 'funding': {
          const round = this.roundFor(f, company);
          return `${name} raises $${(this.amount(f, round) / 1_000_000).toFixed(1)}M ${round} round`;
        }
        case 'mergers_acquisitions':
          return `${name} acquires ${other}`;
        case 'expansion':
          return `${name} opens new office in ${f.helpers.arrayElement(majorCitiesOf(f.helpers.arrayElement(['US', 'GB', 'DE', 'FR', 'NL', 'ES']))).name}`;
        case 'leadership_change':
          return `${name} appoints ${f.person.fullName()} as ${f.helpers.arrayElement(['Chief Revenue Officer', 'Chief Technology Officer', 'Chief Financial Officer', 'Chief Marketing Officer', 'Chief Executive Officer'])}`;
        case 'product_launch':
          return `${name} launches ${f.commerce.productName()} for ${f.helpers.arrayElement(['enterprise teams', 'SMBs', 'developers', 'finance teams'])}`;
        case 'contract_partnership':
          return `${name} partners with ${other} to ${f.company.buzzPhrase()}`;
        case 'restructuring':
          return `${name} announces restructuring to focus on ${f.helpers.arrayElement(FOCUS_AREAS)}`;
        case 'event_participation':
          return `${name} to exhibit at ${show[0]} ${at.getUTCFullYear()}`;
      }
    })();
    const data: Record<string, string | number> = {
      news_event_type: type,
      news_event_label: NEWS_EVENT_LABELS[type],
      news_event_date: day(at),
      news_headline: headline,
      news_url: `https://www.${publisherDomain}/${at.getUTCFullYear()}/${month(at).slice(5)}/${slugOf(headline)}`,
      news_title: `${headline} | ${publisher}`,
      news_summary: `${headline}. ${f.company.catchPhrase()}, according to the company.`,
    };
    if (type === 'event_participation') {
      data.news_event_name = `${show[0]} ${at.getUTCFullYear()}`;
      data.news_event_location = show[1];
    }
    return data;
  }
}

const PERSON_EVENTS: ReadonlySet<EventType> = new Set([
  'job_change',
  'new_decision_makers',
  'company_post_reactions',
  'competitor_social_reactions',
  'competitor_connections',
]);

const CITY_SAMPLES = new Map<string, GazetteerCity[]>();

/** A fixed slice of a country's cities: listing them all costs milliseconds for large countries. */
function someCitiesOf(countryCode: string): GazetteerCity[] {
  let cities = CITY_SAMPLES.get(countryCode);
  if (!cities) CITY_SAMPLES.set(countryCode, (cities = citiesOf(countryCode).slice(0, 400)));
  return cities;
}

function isDecisionMakerTitle(title: string): boolean {
  const persona = matchPersona(title);
  return persona !== undefined && DECISION_MAKERS.has(persona.seniority);
}

/** The types in order, each repeated its count, scaled when the total asked differs. */
function spread(counts: Readonly<Record<EventType, number>>, total: number): EventType[] {
  const sum = Object.values(counts).reduce((a, b) => a + b, 0);
  const types: EventType[] = [];
  for (const type of Object.keys(counts) as EventType[]) {
    const n = Math.max(1, Math.round((counts[type] * total) / sum));
    for (let i = 0; i < n; i++) types.push(type);
  }
  return types;
}

/** An instant inside the month someone started, clamped to the window; undefined when the month lies outside it. */
function withinMonth(f: Faker, startedOn: string | null, from: number, to: number): Date | undefined {
  if (!startedOn) return undefined;
  const start = Date.parse(`${startedOn}-01T00:00:00Z`);
  const end = Date.UTC(Number(startedOn.slice(0, 4)), Number(startedOn.slice(5, 7)), 1) - 1;
  const low = Math.max(start, from);
  const high = Math.min(end, to);
  return low <= high ? new Date(f.number.int({ min: low, max: high })) : undefined;
}

function jobUrl(f: Faker, source: string, company: DemoCompanyRef, title: string): string {
  switch (source) {
    case 'LinkedIn':
      return `https://www.linkedin.com/jobs/view/${f.string.numeric(10)}`;
    case 'Indeed':
      return `https://www.indeed.com/viewjob?jk=${f.string.hexadecimal({ length: 16, casing: 'lower', prefix: '' })}`;
    case 'Glassdoor':
      return `https://www.glassdoor.com/job-listing/${slugOf(title)}-JV_${f.string.numeric(10)}.htm`;
    case 'Welcome to the Jungle':
      return `https://www.welcometothejungle.com/en/companies/${slugOf(company.name)}/jobs/${slugOf(title)}`;
    case 'StepStone':
      return `https://www.stepstone.de/stellenangebote--${slugOf(title)}--${f.string.numeric(8)}-inline.html`;
    default:
      return `https://${company.domain ?? 'example.com'}/careers/${slugOf(title)}`;
  }
}

export function companyRef(record: CompanyRecordInput): DemoCompanyRef {
  return {
    id: record.id,
    name: record.name,
    domain: record.domain ?? null,
    industry: record.industry ?? null,
    employeeCount: record.employeeCount ?? null,
    hqCity: record.hqCity ?? null,
    hqCountryCode: record.hqCountryCode ?? null,
  };
}

export function personRef(record: PersonRecordInput, company: DemoCompanyRef): DemoPersonRef {
  return {
    id: record.id,
    firstName: record.firstName,
    lastName: record.lastName,
    title: record.title ?? '',
    startedOn: record.startedOn ?? null,
    company,
  };
}
