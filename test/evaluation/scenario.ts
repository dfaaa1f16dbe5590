import fc from 'fast-check';
import { COMPANY_SIZE_BANDS, sizeBandOf } from '../../src/catalogue/company-sizes';
import { matchPersona } from '../../src/catalogue/personas';
import { signalType, type SignalTypeId } from '../../src/signal-types/registry';

/**
 * Generated scenarios for the incremental-evaluation property: a small world (companies,
 * people), one signal config, and a sequence of commands as plain data, so fast-check can
 * shrink them and a failure prints as JSON. Companies, people and events are named by their
 * index in the world (taken modulo the current count), so a shrunk sequence stays valid.
 */

/** A registered signal type's id; the property runs every type of the registry. */
export type SignalKind = SignalTypeId;

// ---------------------------------------------------------------- the world's vocabulary

export const INDUSTRIES = ['Software Development', 'Financial Services', 'Hospitals and Health Care'] as const;
export const EMPLOYEE_COUNTS = [8, 40, 150, 900] as const;
export const COUNTRIES = [
  { code: 'US', name: 'United States', city: 'Austin' },
  { code: 'GB', name: 'United Kingdom', city: 'London' },
  { code: 'DE', name: 'Germany', city: 'Berlin' },
] as const;
export const TITLES = ['CTO', 'CFO', 'VP Sales', 'Software Engineer', 'Head of Marketing'] as const;
/** The personas the titles above read as: what jobTitles and targetPersonas choose from. */
export const PERSONAS = [...new Set(TITLES.flatMap((title) => matchPersona(title)?.name ?? []))];
const SIZE_BANDS = [...new Set(EMPLOYEE_COUNTS.map((n) => sizeBandOf(n)))].filter((band) =>
  (COMPANY_SIZE_BANDS as readonly string[]).includes(band),
);

export const FUNDING_TYPES = ['Seed', 'Series A', 'Series B', 'Grant'] as const;
/** '' is an unknown amount, as providers send it: a min or max filter then leaves the round out. */
export const FUNDING_AMOUNTS = [500_000, 5_000_000, 50_000_000, ''] as const;
export const POSTING_TITLES = [
  'Senior Data Engineer',
  'Account Executive',
  'VP Sales',
  'Software Engineer',
  'Marketing Manager',
] as const;
export const POSTING_LOCATIONS = ['Austin, Texas, United States', 'Berlin, Germany', 'London, United Kingdom'] as const;
export const POSTING_DESCRIPTIONS = [
  'Build our Snowflake pipelines.',
  'Grow the pipeline with Salesforce.',
  '',
] as const;

export interface CompanyTraits {
  industry: number;
  size: number;
  country: number;
}

export interface PersonTraits {
  company: number;
  title: number;
  country: number;
  /** A personal address instead of one at the company's domain (a domain suppression then misses it). */
  personalEmail: boolean;
}

export interface EventDraft {
  type: string;
  company: number;
  /** Person-level types take a person; others may name one or not. */
  person: number | null;
  /** occurred_at relative to the clock when ingested: negative is past, positive a little in the future. */
  minutes: number;
  /** Picks the event's data (stage, amount, posting title, headline...). */
  variant: number;
}

export type Command =
  | { do: 'addCompany'; company: CompanyTraits }
  | { do: 'addPerson'; person: PersonTraits }
  | {
      do: 'changeCompany';
      company: number;
      industry?: number;
      size?: number;
      country?: number;
      rebrand?: boolean;
      /** Known only through claims (docs/decisions/claims.md), or corroborated back to trusted. */
      claimed?: boolean;
    }
  | { do: 'changePerson'; person: number; title?: number; country?: number; company?: number; personalEmail?: boolean }
  | { do: 'ingest'; events: EventDraft[] }
  /** Events whose ingestion commits only after the next evaluation (a slow source transaction). */
  | { do: 'ingestAcrossEvaluation'; events: EventDraft[] }
  | { do: 'forgetPerson'; person: number }
  | { do: 'revise'; event: number; variant: number }
  | { do: 'advance'; minutes: number }
  | { do: 'evaluate' }
  | { do: 'pause' }
  | { do: 'resume' }
  | { do: 'configure'; config?: Record<string, unknown>; dailyLeadLimit?: number; duplicateHandling?: string }
  | { do: 'topUp'; credits: number }
  | { do: 'suppress'; what: 'domain' | 'email' | 'company_url'; target: number; scope: 'account' | 'signal' }
  | { do: 'unsuppress'; entry: number }
  /** A watched company (by domain) or person (by profile URL). */
  | { do: 'watch'; what: 'company' | 'person'; target: number }
  | { do: 'unwatch'; what: 'company' | 'person'; target: number };

export interface Scenario {
  kind: SignalKind;
  /** Minutes past the real time the clock starts at (varies the time of day). */
  startMinutes: number;
  credits: number;
  dailyLeadLimit: number;
  duplicateHandling: string;
  config: Record<string, unknown>;
  /** The watchlist's first companies (indices); empty for the other types. */
  watched: number[];
  companies: CompanyTraits[];
  people: PersonTraits[];
  /** Events stored before the signals are created. */
  events: EventDraft[];
  /** Size of each produceBatch call, the same for both productions. */
  batchSize: number;
  commands: Command[];
}

// ---------------------------------------------------------------- arbitraries

const index = fc.nat({ max: 40 });
const someOf = <T>(values: readonly T[], minLength = 0) => fc.subarray([...values], { minLength });
/** Mostly left out: a config with every filter set matches almost nothing in a small world. */
const optional = <T>(value: fc.Arbitrary<T>, weight = 1) =>
  fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight, arbitrary: value });
/** Half the time: a command's fields. */
const sometimes = <T>(value: fc.Arbitrary<T>) => fc.oneof(fc.constant(undefined), value);
/** A field left out, removed (null) or set: PATCH semantics of config. */
const patched = <T>(value: fc.Arbitrary<T>) => optional(fc.oneof(value, fc.constant(null)), 2);

const companyTraits: fc.Arbitrary<CompanyTraits> = fc.record({
  industry: fc.nat({ max: INDUSTRIES.length - 1 }),
  size: fc.nat({ max: EMPLOYEE_COUNTS.length - 1 }),
  country: fc.nat({ max: COUNTRIES.length - 1 }),
});

const personTraits: fc.Arbitrary<PersonTraits> = fc.record({
  company: index,
  title: fc.nat({ max: TITLES.length - 1 }),
  country: fc.nat({ max: COUNTRIES.length - 1 }),
  personalEmail: fc.boolean(),
});

const countryNames = COUNTRIES.map((c) => c.name);
const companyFilters = {
  industryFilters: someOf(INDUSTRIES, 1),
  companySizeFilters: someOf(SIZE_BANDS, 1),
  locations: someOf(countryNames, 1),
};

/** What a type's config draws on: a field's arbitrary (left out, or with `patch` also removed) and the shared filters. */
interface ConfigParts {
  maybe: <T>(value: fc.Arbitrary<T>) => fc.Arbitrary<T | null | undefined>;
  patch: boolean;
  company: Record<string, fc.Arbitrary<unknown>>;
  targetPersonas: fc.Arbitrary<unknown>;
}

/**
 * How the scenarios draw each signal type's config, and which event types they ingest for it
 * (the kinds it reads, and one it does not, as noise). A type in the registry without an entry
 * here fails the property, naming itself.
 */
const SCENARIO_KINDS: Record<
  SignalKind,
  { config: (parts: ConfigParts) => Record<string, fc.Arbitrary<unknown>>; eventTypes: readonly string[] }
> = {
  job_changes: {
    config: ({ maybe, patch, company }) => ({
      // Activation needs titles: a patch may change them, never remove them.
      jobTitles: patch ? optional(someOf(PERSONAS, 2)) : someOf(PERSONAS, 2),
      customTitles: maybe(someOf(['Engineer', 'Sales'], 1)),
      maxJobAgeDays: maybe(fc.constantFrom(180, 200)),
      ...company,
    }),
    eventTypes: ['job_change', 'job_change', 'job_change', 'fundraising'],
  },
  fundraising: {
    config: ({ maybe, company, targetPersonas }) => ({
      fundingStages: maybe(someOf(FUNDING_TYPES.slice(0, 3), 1)),
      minAmountUsd: maybe(fc.constant(1_000_000)),
      maxAmountUsd: maybe(fc.constant(10_000_000)),
      maxAnnouncementAgeDays: maybe(fc.constantFrom(3, 30, 90)),
      targetPersonas,
      ...company,
    }),
    eventTypes: ['fundraising', 'fundraising', 'fundraising', 'job_offers'],
  },
  hiring: {
    config: ({ maybe, patch, company, targetPersonas }) => ({
      keywords: patch
        ? optional(someOf(['Engineer', 'Sales', 'Snowflake', 'Marketing'], 1))
        : someOf(['Engineer', 'Sales', 'Snowflake', 'Marketing'], 1),
      departments: maybe(someOf(['engineering', 'sales', 'data', 'marketing'], 1)),
      seniorities: maybe(someOf(['manager', 'vp', 'individual_contributor'], 1)),
      jobLocations: maybe(someOf(countryNames, 1)),
      maxPostingAgeDays: maybe(fc.constantFrom(3, 14, 30)),
      targetPersonas,
      ...company,
    }),
    eventTypes: ['job_offers', 'job_offers', 'job_offers', 'fundraising'],
  },
  account_score: {
    // Low thresholds and short cooldowns: in a small world crossings, falls and recrossings then happen.
    config: ({ maybe, company, targetPersonas }) => ({
      threshold: maybe(fc.constantFrom(10, 30, 45)),
      minDistinctTypes: maybe(fc.constantFrom(1, 2)),
      cooldownDays: maybe(fc.constantFrom(0, 1, 5)),
      maxCrossingAgeDays: maybe(fc.constantFrom(3, 30, 90)),
      targetPersonas,
      ...company,
    }),
    eventTypes: ['fundraising', 'job_offers', 'new_decision_makers', 'company_news', 'public_tenders', 'job_change'],
  },
  account_watchlist: {
    config: ({ maybe, targetPersonas }) => ({
      sources: optional(
        fc.record(
          {
            public_tenders: fc.record({ enabled: fc.boolean() }),
            job_offers: fc.record({ enabled: fc.boolean() }),
            new_decision_makers: fc.record({ enabled: fc.boolean() }),
            company_news: fc.record({ enabled: fc.boolean() }),
          },
          { requiredKeys: [] },
        ),
      ),
      firstRunLookbackDays: maybe(fc.constantFrom(2, 30, 180)),
      targetPersonas,
    }),
    eventTypes: [
      'fundraising',
      'public_tenders',
      'job_offers',
      'new_decision_makers',
      'company_post_reactions',
      'company_news',
      'job_change',
    ],
  },
};

function scenarioKind(kind: SignalKind) {
  const known = SCENARIO_KINDS[kind];
  if (!known)
    throw new Error(
      `no scenario for the signal type ${kind}: add its config and event types to test/evaluation/scenario.ts`,
    );
  return known;
}

/** A config of the kind, every field a patch may also set (`patch` allows null, which removes it). */
export function configOf(kind: SignalKind, patch: boolean): fc.Arbitrary<Record<string, unknown>> {
  const maybe = <T>(value: fc.Arbitrary<T>) => (patch ? patched(value) : optional(value));
  const company = {
    industryFilters: maybe(companyFilters.industryFilters),
    companySizeFilters: maybe(companyFilters.companySizeFilters),
    locations: maybe(companyFilters.locations),
  };
  // Often set: which person a company's event names is where incremental reads go wrong most easily.
  const targetPersonas = patch ? patched(someOf(PERSONAS, 1)) : optional(someOf(PERSONAS, 1), 4);
  return fc.record(scenarioKind(kind).config({ maybe, patch, company, targetPersonas })).map(withoutUndefined);
}

const withoutUndefined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

/** Mostly recent, some late arrivals (old but often inside the window, some outside), a few slightly ahead. */
const occurredMinutes = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: -3 * 1440, max: 0 }) },
  { weight: 3, arbitrary: fc.integer({ min: -200 * 1440, max: -3 * 1440 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 * 1440 }) },
);

const eventDraft = (kind: SignalKind): fc.Arbitrary<EventDraft> =>
  fc.record({
    type: fc.constantFrom(...scenarioKind(kind).eventTypes),
    company: index,
    person: fc.option(index, { nil: null }),
    minutes: occurredMinutes,
    variant: fc.nat({ max: 63 }),
  });

const duplicateHandling = fc.constantFrom('refuse', 'allow', '1d', '3d', '7d');
const dailyLeadLimit = fc.integer({ min: 1, max: 6 });

/** From minutes to days; often past a UTC midnight (the daily cap) and past short duplicate windows. */
const advanceMinutes = fc.oneof(
  fc.integer({ min: 1, max: 180 }),
  fc.integer({ min: 180, max: 1440 }),
  fc.integer({ min: 1440, max: 10 * 1440 }),
);

function command(kind: SignalKind): fc.Arbitrary<Command> {
  const watchlist = signalType(kind).watchesCompanies === true;
  const choices: fc.WeightedArbitrary<Command>[] = [
    {
      weight: 6,
      arbitrary: fc.record({
        do: fc.constant('ingest'),
        events: fc.array(eventDraft(kind), { minLength: 1, maxLength: 8, size: 'max' }),
      }),
    },
    { weight: 6, arbitrary: fc.constant({ do: 'evaluate' as const }) },
    {
      weight: 1,
      arbitrary: fc.record({
        do: fc.constant('ingestAcrossEvaluation'),
        events: fc.array(eventDraft(kind), { minLength: 1, maxLength: 4 }),
      }),
    },
    { weight: 4, arbitrary: fc.record({ do: fc.constant('advance'), minutes: advanceMinutes }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('addCompany'), company: companyTraits }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('addPerson'), person: personTraits }) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          do: fc.constant('changeCompany'),
          company: index,
          industry: sometimes(fc.nat({ max: INDUSTRIES.length - 1 })),
          size: sometimes(fc.nat({ max: EMPLOYEE_COUNTS.length - 1 })),
          country: sometimes(fc.nat({ max: COUNTRIES.length - 1 })),
          rebrand: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, fc.constant(true)),
          claimed: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, fc.boolean()),
        })
        .map((c) => withoutUndefined(c) as Command),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          do: fc.constant('changePerson'),
          person: index,
          title: sometimes(fc.nat({ max: TITLES.length - 1 })),
          country: sometimes(fc.nat({ max: COUNTRIES.length - 1 })),
          company: sometimes(index),
          personalEmail: sometimes(fc.boolean()),
        })
        .map((c) => withoutUndefined(c) as Command),
    },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('forgetPerson'), person: index }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('revise'), event: index, variant: fc.nat({ max: 63 }) }) },
    { weight: 1, arbitrary: fc.constant({ do: 'pause' as const }) },
    { weight: 3, arbitrary: fc.constant({ do: 'resume' as const }) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          do: fc.constant('configure'),
          config: sometimes(configOf(kind, true)),
          dailyLeadLimit: sometimes(dailyLeadLimit),
          duplicateHandling: sometimes(duplicateHandling),
        })
        .map((c) => withoutUndefined(c) as Command),
    },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('topUp'), credits: fc.integer({ min: 1, max: 12 }) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        do: fc.constant('suppress'),
        what: fc.constantFrom('domain', 'email', 'company_url'),
        target: index,
        scope: fc.constantFrom('account', 'signal'),
      }),
    },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('unsuppress'), entry: index }) },
  ];
  if (watchlist)
    choices.push(
      {
        weight: 2,
        arbitrary: fc.record({ do: fc.constant('watch'), what: fc.constantFrom('company', 'person'), target: index }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ do: fc.constant('unwatch'), what: fc.constantFrom('company', 'person'), target: index }),
      },
    );
  return fc.oneof(...choices) as fc.Arbitrary<Command>;
}

export function scenarioOf(kind: SignalKind, options: { maxCommands: number }): fc.Arbitrary<Scenario> {
  return fc.record({
    kind: fc.constant(kind),
    startMinutes: fc.nat({ max: 1439 }),
    credits: fc.integer({ min: 3, max: 30 }),
    dailyLeadLimit,
    duplicateHandling,
    config: configOf(kind, false),
    watched: signalType(kind).watchesCompanies ? fc.array(index, { minLength: 1, maxLength: 4 }) : fc.constant([]),
    // Few companies and people, so subjects meet again (the duplicate rule) and share companies (targeting).
    companies: fc.array(companyTraits, { minLength: 2, maxLength: 6, size: 'max' }),
    people: fc.array(personTraits, { minLength: 3, maxLength: 12, size: 'max' }),
    events: fc.array(eventDraft(kind), { minLength: 3, maxLength: 20, size: 'max' }),
    batchSize: fc.constantFrom(2, 5, 100),
    commands: fc.array(command(kind), { minLength: 1, maxLength: options.maxCommands, size: 'max' }),
  });
}
