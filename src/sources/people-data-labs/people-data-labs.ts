import { z } from 'zod';
import { resolveLocation } from '../../catalogue/locations';
import { API_JSON_LIMITS, readJson } from '../kit/document-limits';
import type {
  ChangesPage,
  PeopleDataVendor,
  PersonChange,
  VendorAnswer,
  VendorHttp,
  VendorPerson,
  VendorReply,
} from './vendor';

export const PDL_HOST = 'api.peopledatalabs.com';
const CHANGELOG_URL = `https://${PDL_HOST}/v5/person/changelog`;
const retrieveUrl = (id: string) => `https://${PDL_HOST}/v5/person/retrieve/${encodeURIComponent(id)}`;

/** Top-level person fields whose change may be a new employer or title (PDL limits child fields to their parent). */
const JOB_FIELDS = new Set([
  'job_title',
  'job_company_id',
  'job_company_name',
  'job_company_website',
  'job_company_linkedin_url',
  'job_start_date',
  'experience',
]);
/** Without a usable x-ratelimit-reset, a 429 waits a fixed-window minute. */
const DEFAULT_WAIT_MS = 60_000;
const MAX_WAIT_MS = 3_600_000;

const changelogAnswer = z.object({
  data: z.looseObject({
    type: z.string(),
    scroll_token: z.string().nullish(),
  }),
});
const changedRecord = z.object({
  id: z.string().min(1),
  additional_metadata: z.object({ fields_updated: z.array(z.string()).nullish() }).nullish(),
});

const nullable = z
  .string()
  .nullish()
  .transform((v) => v?.trim() || null);
const retrieveAnswer = z.object({
  billed: z.boolean().nullish(),
  data: z.object({
    id: z.string().min(1),
    first_name: nullable,
    last_name: nullable,
    job_title: nullable,
    job_company_name: nullable,
    job_company_website: nullable,
    job_company_linkedin_url: nullable,
    job_company_industry: nullable,
    job_start_date: nullable,
    work_email: z.unknown().nullish(),
    mobile_phone: z.unknown().nullish(),
    linkedin_url: nullable,
    location_name: nullable,
    location_locality: nullable,
    location_country: nullable,
  }),
});
const errorAnswer = z.object({ error: z.object({ type: z.string().nullish(), message: z.string().nullish() }) });

/**
 * People Data Labs (docs.peopledatalabs.com): the Person Changelog API
 * (`POST /v5/person/changelog`, free, one call per page of a scroll) says which people changed
 * or opted out between two consecutive monthly releases; the Person Retrieve API
 * (`GET /v5/person/retrieve/{id}`) answers one person by PDL id, a credit charged when the
 * record is new or updated for the key (`billed`). Both authenticate with `X-Api-Key`; a 429 is
 * `{"status": 429, "error": {"type": "rate_limit_error", ...}}` until the fixed window resets
 * (`x-ratelimit-reset`, UTC).
 */
export class PeopleDataLabsApi implements PeopleDataVendor {
  readonly source = 'people-data-labs';
  readonly idPrefix = 'pdl';
  readonly host = PDL_HOST;
  /** The changelog takes ids in a POST body, of no documented limit: a hundred keeps each answer small. */
  readonly idsPerRequest = 100;

  constructor(
    private readonly apiKey: string,
    private readonly http: VendorHttp,
  ) {}

  /** Monthly releases go x.0, x.1, x.2, then (x+1).0; a changelog compares two consecutive ones ("28.0" follows "27.2"). */
  previousRelease(release: string): string | null {
    const match = /^(\d+)\.([0-2])$/.exec(release.trim());
    if (!match) return null;
    const major = Number(match[1]);
    const minor = Number(match[2]);
    return minor > 0 ? `${major}.${minor - 1}` : major > 0 ? `${major - 1}.2` : null;
  }

  mayBeJobChange(fieldsUpdated: readonly string[]): boolean {
    return fieldsUpdated.length === 0 || fieldsUpdated.some((field) => JOB_FIELDS.has(field));
  }

  async changes(query: {
    from: string;
    to: string;
    kind: PersonChange['kind'];
    ids: readonly string[];
    page: string | null;
  }): Promise<VendorAnswer<ChangesPage>> {
    const body = {
      origin_version: query.from,
      current_version: query.to,
      type: query.kind,
      ids: query.ids,
      ...(query.page ? { scroll_token: query.page } : {}),
    };
    const reply = await this.http({
      method: 'POST',
      url: CHANGELOG_URL,
      headers: { 'x-api-key': this.apiKey, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const where = `changelog ${query.from} → ${query.to} (${query.kind})`;
    const failed = failure(reply, where);
    if (failed) return failed;
    const parsed = changelogAnswer.safeParse(parseJson(reply.body));
    if (!parsed.success) return { problem: `${where}: not a changelog answer` };
    const listed = parsed.data.data[query.kind] ?? [];
    const records = z.array(changedRecord).safeParse(listed);
    if (!records.success) return { problem: `${where}: data.${query.kind} is not a list of records with an id` };
    const changes = records.data.map((record) => ({
      vendorId: record.id,
      kind: query.kind,
      fieldsUpdated: record.additional_metadata?.fields_updated ?? [],
    }));
    // The scroll ends on an empty page or without a token; a token sent back unchanged ends it too.
    const token = parsed.data.data.scroll_token ?? null;
    const next = changes.length > 0 && token && token !== query.page ? token : null;
    return { ok: { changes, next } };
  }

  async person(vendorId: string): Promise<VendorAnswer<{ person: VendorPerson; billed: boolean }>> {
    const reply = await this.http({
      method: 'GET',
      url: retrieveUrl(vendorId),
      headers: { 'x-api-key': this.apiKey, accept: 'application/json' },
    });
    const where = `person ${vendorId}`;
    const failed = failure(reply, where);
    if (failed) return failed;
    const parsed = retrieveAnswer.safeParse(parseJson(reply.body));
    if (!parsed.success) return { problem: `${where}: not a person record` };
    const data = parsed.data.data;
    const country = data.location_country ? resolveLocation(data.location_country) : undefined;
    return {
      ok: {
        billed: parsed.data.billed === true,
        person: {
          vendorId: data.id,
          firstName: wordCase(data.first_name),
          lastName: wordCase(data.last_name),
          title: wordCase(data.job_title),
          companyName: wordCase(data.job_company_name),
          companyDomain: data.job_company_website,
          companyLinkedinUrl: data.job_company_linkedin_url ? withScheme(data.job_company_linkedin_url) : null,
          companyIndustry: wordCase(data.job_company_industry),
          startedOn:
            data.job_start_date && /^\d{4}-\d{2}/.test(data.job_start_date) ? data.job_start_date.slice(0, 7) : null,
          // A plan without contact data answers `true` where a value exists but is not licensed.
          email: typeof data.work_email === 'string' && data.work_email.includes('@') ? data.work_email : null,
          phone: typeof data.mobile_phone === 'string' && data.mobile_phone.trim() ? data.mobile_phone.trim() : null,
          linkedinUrl: data.linkedin_url ? withScheme(data.linkedin_url) : null,
          location: wordCase(data.location_name),
          city: wordCase(data.location_locality),
          countryCode: country?.kind === 'country' ? country.countryCode : null,
        },
      },
    };
  }
}

/** A 429 to wait out, a 404 of no such person, another answer that is not 200 worded with PDL's own error. */
function failure(reply: VendorReply, where: string): VendorAnswer<never> | null {
  if (reply.status === 200) return null;
  const error = errorAnswer.safeParse(parseJson(reply.body));
  const said = error.success ? [error.data.error.type, error.data.error.message].filter(Boolean).join(': ') : '';
  const message = `${where}: PDL answered ${reply.status}${said ? ` (${said})` : ''}`;
  if (reply.status === 429) return { throttled: { retryAfterMs: waitOf(reply.headers), message } };
  return { problem: message, ...(reply.status === 404 ? { notFound: true } : {}) };
}

/** Retry-After when sent, else the window's reset (`x-ratelimit-reset`: a UTC time, or a JSON map of windows to times). */
function waitOf(headers: VendorReply['headers']): number {
  const retryAfter = headers['retry-after']?.trim();
  let ms: number | null = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : null;
  const reset = headers['x-ratelimit-reset']?.trim();
  if (ms === null && reset) {
    const times = reset.startsWith('{') ? Object.values(jsonObject(reset)) : [reset];
    const due = times
      .map((time) => (typeof time === 'string' || typeof time === 'number' ? utcTime(time) : NaN))
      .filter((at) => !Number.isNaN(at));
    if (due.length) ms = Math.max(...due) - Date.now();
  }
  return Math.min(MAX_WAIT_MS, Math.max(1000, ms ?? DEFAULT_WAIT_MS));
}

/** "2026-11-26 18:01:00" is UTC as PDL writes it; epoch seconds are accepted too. */
function utcTime(value: string | number): number {
  if (typeof value === 'number' || /^\d+$/.test(value)) return Number(value) * 1000;
  const text = /[zZ]|[+-]\d\d:?\d\d$|GMT/.test(value) ? value : `${value.replace(' ', 'T')}Z`;
  return Date.parse(text);
}

function jsonObject(text: string): Record<string, unknown> {
  const value = parseJson(text);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** An answer past the API limits reads as nothing, as one that is not JSON does. */
function parseJson(text: string): unknown {
  const read = readJson(text, API_JSON_LIMITS);
  return 'value' in read ? read.value : undefined;
}

/** Short words a title keeps in lower case, and the abbreviations it writes in capitals. */
const MINOR_WORDS = new Set(['of', 'and', 'the', 'for', 'at', 'in', 'to', 'a', 'an', 'on', 'de']);
const ABBREVIATIONS = new Set([
  'vp',
  'svp',
  'evp',
  'ceo',
  'cto',
  'cfo',
  'coo',
  'cmo',
  'cio',
  'ciso',
  'hr',
  'it',
  'ai',
  'qa',
  'ux',
  'ui',
]);

/** PDL writes names and titles in lower case ("vp of engineering"): "VP of Engineering". */
function wordCase(text: string | null): string | null {
  if (!text || text !== text.toLowerCase()) return text;
  return text.replace(/\p{L}[\p{L}\p{N}]*/gu, (word, offset: number) => {
    if (ABBREVIATIONS.has(word)) return word.toUpperCase();
    if (offset > 0 && MINOR_WORDS.has(word)) return word;
    return word[0]!.toUpperCase() + word.slice(1);
  });
}

/** PDL's profile URLs come without a scheme ("linkedin.com/in/jane"). */
const withScheme = (url: string) => (/^https?:\/\//i.test(url) ? url : `https://${url}`);
