import { API_JSON_LIMITS, readJson } from '../kit/document-limits';

/**
 * TED's Search API v3 (https://docs.ted.europa.eu/api/latest/index.html, "Notice Search API"):
 * `POST https://api.ted.europa.eu/v3/notices/search`, anonymous, JSON body
 * `{query, fields, limit, page, paginationMode}`; the answer is
 * `{notices: [...], totalNoticeCount, iterationNextToken, timedOut}`, each notice holding the
 * fields asked for. Text fields come keyed by language (`{"eng": "...", "deu": "..."}`), lists
 * of names as `{"eng": ["...", "..."]}`; countries are ISO 3166 alpha-3 codes.
 */
export const TED_SEARCH_URL = 'https://api.ted.europa.eu/v3/notices/search';
/** The API's own cap on notices per page. */
export const TED_MAX_PAGE_SIZE = 250;

/** The fields a contract award notice gives a `public_tenders` event. */
export const TED_FIELDS = [
  'publication-number',
  'publication-date',
  'notice-title',
  'buyer-name',
  'total-value',
  'total-value-cur',
  'organisation-name-tenderer',
  'winner-name',
  'winner-country',
] as const;

/** One awarded company as the notice names it; `country` ISO 3166 alpha-2 when the notice tells it. */
export interface TedWinner {
  name: string;
  country: string | null;
}

/** A contract award (result) notice, in the fields a public_tenders event needs. */
export interface TedAwardNotice {
  /** `123456-2026`. */
  publicationNumber: string;
  /** `YYYY-MM-DD`. */
  publishedOn: string;
  title: string;
  buyer: string;
  /** The notice's total value as stated, in its currency; null when the notice states none. */
  value: { amount: number; currency: string | null } | null;
  /** The notice's page on TED, in English. */
  link: string;
  winners: TedWinner[];
}

export interface TedSearchPage {
  notices: TedAwardNotice[];
  /** Every matching notice, over all pages. */
  total: number;
  /** How many notices the page listed, read or not. */
  listed: number;
  /** Notices left out of the page because they cannot be read (no publication number or date). */
  unreadable: string[];
}

/** Contract award notices (TED's `result` form type) published on `day` (`YYYY-MM-DD`). */
export function awardNoticesOfDayQuery(day: string): string {
  const date = day.replace(/-/g, '');
  return `(form-type IN (result)) AND (publication-date >= ${date}) AND (publication-date <= ${date})`;
}

/** The search body of one page (from 1) of `query`. */
export function tedSearchBody(query: string, page: number, limit: number): string {
  return JSON.stringify({
    query,
    fields: TED_FIELDS,
    page,
    limit: Math.min(limit, TED_MAX_PAGE_SIZE),
    scope: 'ALL',
    paginationMode: 'PAGE_NUMBER',
  });
}

/** The notice page on TED every notice has, by its publication number. */
export const tedNoticeLink = (publicationNumber: string) =>
  `https://ted.europa.eu/en/notice/-/detail/${encodeURIComponent(publicationNumber)}`;

const PUBLICATION_NUMBER = /^\d{1,8}-\d{4}$/;

/** One page of search results, or why it is not one. */
export function parseTedSearch(text: string): TedSearchPage | { problem: string } {
  const read = readJson(text, API_JSON_LIMITS);
  if ('problem' in read) return read;
  const body = read.value;
  if (!isRecord(body) || !Array.isArray(body.notices)) return { problem: 'not a TED search answer: no notices list' };
  const total = typeof body.totalNoticeCount === 'number' ? body.totalNoticeCount : body.notices.length;
  const notices: TedAwardNotice[] = [];
  const unreadable: string[] = [];
  for (const [i, raw] of body.notices.entries()) {
    const notice = isRecord(raw) ? awardNotice(raw) : null;
    if (notice) notices.push(notice);
    else unreadable.push(isRecord(raw) ? String(firstText(raw['publication-number']) ?? `#${i + 1}`) : `#${i + 1}`);
  }
  return { notices, total, listed: body.notices.length, unreadable };
}

function awardNotice(raw: Record<string, unknown>): TedAwardNotice | null {
  const publicationNumber = firstText(raw['publication-number']);
  const publishedOn = firstText(raw['publication-date'])?.slice(0, 10);
  if (!publicationNumber || !PUBLICATION_NUMBER.test(publicationNumber)) return null;
  if (!publishedOn || !/^\d{4}-\d{2}-\d{2}$/.test(publishedOn)) return null;
  const amount = Number(firstText(raw['total-value']));
  return {
    publicationNumber,
    publishedOn,
    title: texts(raw['notice-title']).join(' ').trim(),
    buyer: unique(texts(raw['buyer-name'])).join('; '),
    value:
      firstText(raw['total-value']) !== null && Number.isFinite(amount) && amount >= 0
        ? { amount, currency: firstText(raw['total-value-cur'])?.toUpperCase() ?? null }
        : null,
    link: tedNoticeLink(publicationNumber),
    winners: winnersOf(raw),
  };
}

/**
 * The awarded organisations: `organisation-name-tenderer` (the winning tenderers), else
 * `winner-name`, once per name (a winner of several lots is named once per lot). TED lists
 * `winner-country` apart from the names and not always one per name, so a country is given
 * only when every winner of the notice is of that one country.
 */
function winnersOf(raw: Record<string, unknown>): TedWinner[] {
  const tenderers = texts(raw['organisation-name-tenderer']);
  const names = unique(tenderers.length ? tenderers : texts(raw['winner-name']));
  const countries = unique(texts(raw['winner-country']).map((code) => code.toUpperCase()));
  const country = countries.length === 1 ? (ALPHA3_TO_ALPHA2[countries[0]!] ?? null) : null;
  return names.map((name) => ({ name, country }));
}

/** English first, else the first language given; a plain value or list as it is. */
function texts(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string' || typeof value === 'number') return [String(value).trim()].filter(Boolean);
  if (Array.isArray(value)) return value.flatMap(texts);
  if (isRecord(value)) {
    const key = ['eng', 'en', 'ENG', 'EN'].find((k) => k in value) ?? Object.keys(value)[0];
    return key === undefined ? [] : texts(value[key]);
  }
  return [];
}

const firstText = (value: unknown): string | null => texts(value)[0] ?? null;

function unique(names: string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = name.toLowerCase().replace(/\s+/g, ' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The countries TED's winners come from in practice: the EU, the EEA, and their neighbours and partners. */
const ALPHA3_TO_ALPHA2: Readonly<Record<string, string>> = {
  AUT: 'AT',
  BEL: 'BE',
  BGR: 'BG',
  HRV: 'HR',
  CYP: 'CY',
  CZE: 'CZ',
  DNK: 'DK',
  EST: 'EE',
  FIN: 'FI',
  FRA: 'FR',
  DEU: 'DE',
  GRC: 'GR',
  HUN: 'HU',
  IRL: 'IE',
  ITA: 'IT',
  LVA: 'LV',
  LTU: 'LT',
  LUX: 'LU',
  MLT: 'MT',
  NLD: 'NL',
  POL: 'PL',
  PRT: 'PT',
  ROU: 'RO',
  SVK: 'SK',
  SVN: 'SI',
  ESP: 'ES',
  SWE: 'SE',
  ISL: 'IS',
  LIE: 'LI',
  NOR: 'NO',
  CHE: 'CH',
  GBR: 'GB',
  USA: 'US',
  CAN: 'CA',
  TUR: 'TR',
  UKR: 'UA',
  SRB: 'RS',
  MKD: 'MK',
  MNE: 'ME',
  ALB: 'AL',
  BIH: 'BA',
  MDA: 'MD',
  ISR: 'IL',
  JPN: 'JP',
  CHN: 'CN',
  IND: 'IN',
  AUS: 'AU',
  KOR: 'KR',
  SGP: 'SG',
  ARE: 'AE',
};
