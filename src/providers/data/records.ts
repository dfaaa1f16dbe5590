/**
 * The records data providers send (contract section 3): companies, people and intent events,
 * one JSON object each, told apart by `kind`.
 *
 * Required fields — the least a record needs to be of any use to a signal:
 *  - company: `id`, `name` (a lead always names its company, and the watchlist matches on it);
 *  - person: `id`, `companyId`, `firstName`, `lastName` (a contact nobody can address is not a
 *    lead; a person outside any company is never reached, since every event is about a company);
 *  - event: `id`, `type`, `occurredAt`, `companyId`; plus `personId` for the types that are
 *    about a person by nature (`job_change` and the person-level watchlist events), whose lead
 *    is that person.
 * Every other field may be absent, `null` or empty; all three are stored as "unknown".
 *
 * Objects are strict: an unknown key (a snake_case `employee_count`, a typo) rejects the line
 * and is named, instead of the value being dropped without a word. Event `data` is checked the
 * same way against the lead `signal` fields of its type, because the lead carries it unchanged.
 *
 * The schemas' output is the normalised record: canonical professional-network URLs,
 * registrable domains, upper-case country codes, V2 industry names.
 */
import { z } from 'zod';
import { currentIndustryName } from '../../catalogue/industries';
import { countryName } from '../../catalogue/locations';
import {
  JOB_CHANGE_SIGNAL_FIELDS,
  NEWS_EVENT_TYPES,
  PERSON_LEVEL_WATCHLIST_EVENTS,
  WATCHLIST_EVENT_KEYS,
  WATCHLIST_SIGNAL_FIELDS,
} from '../../catalogue/watchlist-events';
import { canonicalNetworkUrl, registrableDomain } from '../../catalogue/identifiers';

export const EVENT_TYPES = ['job_change', ...WATCHLIST_EVENT_KEYS] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Events whose lead is a person: they must name one. */
export const PERSON_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  'job_change',
  ...PERSON_LEVEL_WATCHLIST_EVENTS,
]);

const recordId = z.string().trim().min(1, 'must not be empty').max(200);

/** Absent, null and blank all mean "unknown" and come out as null. */
const optionalText = (max = 2000) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((value) => value?.trim() || null);

const requiredText = (max = 500) => z.string().trim().min(1, 'must not be empty').max(max);

const countryCode = optionalText(50)
  .refine((code) => code === null || (/^[A-Za-z]{2}$/.test(code) && countryName(code) !== undefined), {
    message: 'must be an ISO 3166-1 alpha-2 country code such as "US"',
  })
  .transform((code) => code?.toUpperCase() ?? null);

function networkUrl(kind: 'company' | 'person') {
  const page =
    kind === 'company'
      ? 'a company page (https://www.linkedin.com/company/<slug>)'
      : 'a profile (https://www.linkedin.com/in/<slug>)';
  return optionalText().transform((raw, ctx) => {
    if (raw === null) return null;
    const canonical = canonicalNetworkUrl(raw);
    if (canonical && canonical !== 'unusable' && canonical.kind === kind) return canonical.url;
    ctx.addIssue({ code: 'custom', message: `must be ${page}` });
    return z.NEVER;
  });
}

/** The person's lead page in Sales Navigator (https://www.linkedin.com/sales/lead/...), kept as sent. */
const salesNavigatorUrl = optionalText(1000).refine(
  (raw) => raw === null || /^https:\/\/(www\.)?linkedin\.com\/sales\/\S+$/i.test(raw),
  { message: 'must be a Sales Navigator URL (https://www.linkedin.com/sales/...)' },
);

/** "acme.com", "www.acme.com" and "https://acme.com/about" all become "acme.com". */
const domain = optionalText(500).transform((raw, ctx) => {
  if (raw === null) return null;
  const host = raw.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0];
  const registrable = registrableDomain(host);
  if (registrable) return registrable;
  ctx.addIssue({ code: 'custom', message: 'must be a domain such as "acme.com"' });
  return z.NEVER;
});

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const SLASH_MONTH = /^(0[1-9]|1[0-2])\/\d{4}$/;

export const companyRecord = z.strictObject({
  kind: z.literal('company'),
  id: recordId,
  name: requiredText(),
  domain,
  linkedinUrl: networkUrl('company'),
  // Unknown names are kept: a vendor's own taxonomy still shows on the lead, it just never
  // matches an industry filter. First-generation names are moved to their V2 successor.
  industry: optionalText(300).transform((name) => (name === null ? null : (currentIndustryName(name) ?? name))),
  employeeCount: z
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .nullish()
    .transform((n) => n ?? null),
  hqCountryCode: countryCode,
  hqCity: optionalText(300),
  description: optionalText(20_000),
  companyType: optionalText(200),
  foundedYear: z
    .number()
    .int()
    .min(1600)
    .max(new Date().getUTCFullYear() + 1)
    .nullish()
    .transform((n) => n ?? null),
  techStack: z
    .array(z.string().trim().min(1).max(200))
    .max(500)
    .nullish()
    .transform((tools) => [...new Set(tools ?? [])]),
  // What the company's homepage says of itself (the lead's "only with enrichment" fields).
  homepageTitle: optionalText(1000),
  metaDescription: optionalText(5000),
});

export const personRecord = z.strictObject({
  kind: z.literal('person'),
  id: recordId,
  firstName: requiredText(200),
  lastName: requiredText(200),
  title: optionalText(500),
  companyId: recordId,
  linkedinUrl: networkUrl('person'),
  salesNavigatorProfileUrl: salesNavigatorUrl,
  email: z
    .email()
    .max(320)
    .nullish()
    .or(z.literal(''))
    .transform((email) => email || null),
  phone: optionalText(50),
  location: optionalText(500),
  city: optionalText(300),
  countryCode,
  startedOn: optionalText(7).refine((month) => month === null || MONTH.test(month), {
    message: 'must be a month "YYYY-MM"',
  }),
});

interface FieldRule {
  test(value: unknown): boolean;
  expected: string;
}

const text: FieldRule = {
  test: (v) => typeof v === 'string' && v.length <= 20_000,
  expected: 'a string of at most 20000 characters',
};
const pattern = (regex: RegExp, expected: string): FieldRule => ({
  test: (v) => v === '' || (typeof v === 'string' && regex.test(v)),
  expected,
});
const oneOf = (values: readonly string[]): FieldRule => ({
  test: (v) => v === '' || (typeof v === 'string' && values.includes(v)),
  expected: `one of ${values.map((v) => `"${v}"`).join(', ')}`,
});

// Formats fixed by the Lead section of the specification; every other field is free text.
const FIELD_RULES: Readonly<Record<string, FieldRule>> = {
  funding_amount_usd: {
    test: (v) => v === '' || (typeof v === 'number' && Number.isFinite(v) && v >= 0),
    expected: 'a non-negative number',
  },
  announcement_date: pattern(DAY, 'a day "YYYY-MM-DD"'),
  news_event_date: pattern(DAY, 'a day "YYYY-MM-DD"'),
  post_date: pattern(DAY, 'a day "YYYY-MM-DD"'),
  job_offer_published_date: pattern(DAY, 'a day "YYYY-MM-DD"'),
  new_job_started_on: pattern(SLASH_MONTH, 'a month "MM/YYYY"'),
  new_job_start_month: pattern(MONTH, 'a month "YYYY-MM"'),
  watchlist_role: oneOf(['acquiree', 'acquirer']),
  news_event_type: oneOf(NEWS_EVENT_TYPES),
};

const JOB_CHANGE_FIELDS: ReadonlySet<string> = new Set(JOB_CHANGE_SIGNAL_FIELDS);
const WATCHLIST_FIELDS: ReadonlySet<string> = new Set(WATCHLIST_SIGNAL_FIELDS);
// A round may name its stage as the fundraising signal's lead does (`funding_stage`) as well as by `funding_type`.
const FUNDRAISING_FIELDS: ReadonlySet<string> = new Set([...WATCHLIST_SIGNAL_FIELDS, 'funding_stage']);
const allowedDataFields = (type: string) =>
  type === 'job_change' ? JOB_CHANGE_FIELDS : type === 'fundraising' ? FUNDRAISING_FIELDS : WATCHLIST_FIELDS;

export const eventRecord = z
  .strictObject({
    kind: z.literal('event'),
    id: recordId,
    type: z.enum(EVENT_TYPES, {
      error: `must be "job_change" or one of the watchlist event keys (${WATCHLIST_EVENT_KEYS.join(', ')})`,
    }),
    occurredAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp such as "2024-11-22T09:30:00Z"' }),
    companyId: recordId,
    personId: z
      .string()
      .trim()
      .max(200)
      .nullish()
      .transform((id) => id || null),
    /** A job posting's department as its job board files it; a hiring signal's department filter reads it before the title. */
    department: z
      .string()
      .trim()
      .max(200)
      .nullish()
      .transform((name) => name || null),
    // Values are checked field by field below, which words the errors better than a union would.
    // null is dropped so that the lead's empty-string default applies.
    data: z
      .record(z.string(), z.unknown())
      .nullish()
      .transform(
        (data) =>
          Object.fromEntries(Object.entries(data ?? {}).filter(([, value]) => value !== null)) as Record<
            string,
            string | number
          >,
      ),
  })
  .superRefine((event, ctx) => {
    if (PERSON_EVENT_TYPES.has(event.type) && !event.personId) {
      ctx.addIssue({
        code: 'custom',
        path: ['personId'],
        message: `is required for "${event.type}" events, whose lead is a person`,
      });
    }
    const allowed = allowedDataFields(event.type);
    for (const [field, value] of Object.entries(event.data)) {
      if (!allowed.has(field)) {
        ctx.addIssue({
          code: 'custom',
          path: ['data', field],
          message: `is not a lead signal field of "${event.type}" events`,
        });
        continue;
      }
      const rule = FIELD_RULES[field] ?? text;
      if (!rule.test(value))
        ctx.addIssue({ code: 'custom', path: ['data', field], message: `must be ${rule.expected}` });
    }
  });

export const RECORD_SCHEMAS = { company: companyRecord, person: personRecord, event: eventRecord } as const;
export type RecordKind = keyof typeof RECORD_SCHEMAS;

/** One record of any kind; `ingestion.ts` dispatches on `kind` itself to word its errors better. */
export const ingestRecord = z.discriminatedUnion('kind', [companyRecord, personRecord, eventRecord]);

/** What a provider sends. */
export type CompanyRecordInput = z.input<typeof companyRecord>;
export type PersonRecordInput = z.input<typeof personRecord>;
export type EventRecordInput = z.input<typeof eventRecord>;
export type IngestRecordInput = z.input<typeof ingestRecord>;

/** What ingestion stores, normalised. */
export type CompanyRecord = z.output<typeof companyRecord>;
export type PersonRecord = z.output<typeof personRecord>;
export type EventRecord = z.output<typeof eventRecord>;
