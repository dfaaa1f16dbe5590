import { API_JSON_LIMITS, jsonShapeProblem } from '../kit/document-limits';

/**
 * Companies House's documents as its developer specifications describe them
 * (developer-specs.company-information.service.gov.uk): the streaming API's event envelope of
 * the officers stream, a company profile, and a filing history list.
 */

export const REST_ORIGIN = 'https://api.company-information.service.gov.uk';
export const STREAM_ORIGIN = 'https://stream.companieshouse.gov.uk';

/** The officers stream, from a timepoint (the last one received, as the spec says valid timepoints are given). */
export const officersStreamUrl = (timepoint: number | null) =>
  `${STREAM_ORIGIN}/officers${timepoint === null ? '' : `?timepoint=${timepoint}`}`;
export const companyProfileUrl = (number: string) => `${REST_ORIGIN}/company/${encodeURIComponent(number)}`;
/** The capital filings of a company, newest first (SH01 allotments among them). */
export const capitalFilingsUrl = (number: string) =>
  `${REST_ORIGIN}/company/${encodeURIComponent(number)}/filing-history?category=capital&items_per_page=100`;

/** The register searched by name (the first 20 results). */
export const companySearchUrl = (name: string) =>
  `${REST_ORIGIN}/search/companies?q=${encodeURIComponent(name)}&items_per_page=20`;

/** HTTP Basic with the key as the user name and an empty password. */
export const basicAuthOf = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

/** One appointment read from the officers stream. */
export interface OfficerAppointment {
  timepoint: number;
  /** `changed` or `deleted`. */
  type: string;
  appointmentId: string;
  companyNumber: string;
  /** As registered: "SURNAME, Forenames". */
  name: string;
  officerRole: string;
  appointedOn: string | null;
  resignedOn: string | null;
  occupation: string | null;
  countryOfResidence: string | null;
  locality: string | null;
  /** The officer's own appointment list (`links.officer.appointments`: `/officers/{officer_id}/appointments`), when given. */
  appointmentsPath?: string | null;
}

/** One event of the stream is a few KB. */
const STREAM_LINE_LIMITS = { maxChars: 1024 * 1024, maxDepth: 32, maxContainers: 10_000 };

export const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
export const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** One stream line's envelope (both streams share it): null for a heartbeat, or the line's problem. */
export function streamEnvelopeOf(
  line: string,
):
  | { envelope: Record<string, unknown>; event: Record<string, unknown>; timepoint: number; uri: string }
  | { problem: string; timepoint: null }
  | null {
  if (!line.trim()) return null;
  if (jsonShapeProblem(line, STREAM_LINE_LIMITS))
    return { problem: 'a stream line past the size or shape of an event', timepoint: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { problem: 'a stream line that is not JSON', timepoint: null };
  }
  const envelope = record(parsed);
  const event = record(envelope.event);
  const timepoint = typeof event.timepoint === 'number' ? event.timepoint : Number(event.timepoint);
  if (!Number.isSafeInteger(timepoint)) return { problem: 'a stream event without a timepoint', timepoint: null };
  return { envelope, event, timepoint, uri: text(envelope.resource_uri) ?? '' };
}

/**
 * One line of the stream: a blank line is a heartbeat (`null`); an event of another resource
 * kind or without a timepoint is a problem of that line only.
 */
export function parseStreamLine(
  line: string,
): OfficerAppointment | { problem: string; timepoint: number | null } | null {
  const read = streamEnvelopeOf(line);
  if (read === null || 'problem' in read) return read;
  const { envelope, event, timepoint, uri } = read;
  // /company/{company_number}/appointments/{appointment_id}
  const match = /^\/company\/([^/]+)\/appointments\/([^/?]+)/.exec(uri);
  const item = match ? appointmentOfItem(envelope.data, decodeURIComponent(match[1]!)) : null;
  if (!match || !item) return { problem: `an officers event that is not an appointment (${uri})`, timepoint };
  return {
    ...item,
    timepoint,
    type: text(event.type) ?? 'changed',
    appointmentId: text(envelope.resource_id) ?? match[2]!,
  };
}

/**
 * An officer item, as both the officers stream's `data` and a company's officer list give it;
 * null when it has no name or role (a `null` name is that item's fault alone).
 */
export function appointmentOfItem(
  raw: unknown,
  companyNumber: string,
): Omit<OfficerAppointment, 'timepoint' | 'type' | 'appointmentId'> | null {
  const data = record(raw);
  const name = text(data.name);
  const role = text(data.officer_role);
  if (!name || !role) return null;
  const address = record(data.address);
  const appointments = text(record(record(data.links).officer).appointments);
  return {
    companyNumber: companyNumber.toUpperCase(),
    name,
    officerRole: role,
    appointedOn: day(data.appointed_on),
    resignedOn: day(data.resigned_on),
    occupation: text(data.occupation),
    countryOfResidence: text(data.country_of_residence),
    locality: text(address.locality),
    appointmentsPath: appointments && /^\/officers\/[^/?#]+\/appointments$/.test(appointments) ? appointments : null,
  };
}

export const day = (value: unknown) => {
  const t = text(value);
  return t && /^\d{4}-\d{2}-\d{2}$/.test(t) ? t : null;
};

/** "SMITH, John Andrew" → { forenames: "John Andrew", surname: "SMITH" }; a name without a comma is all surname. */
export function officerNameParts(name: string): { forenames: string | null; surname: string } {
  const comma = name.indexOf(',');
  if (comma < 0) return { forenames: null, surname: name.trim() };
  const forenames = name.slice(comma + 1).trim();
  return { forenames: forenames || null, surname: name.slice(0, comma).trim() };
}

export interface CompanyProfile {
  number: string;
  name: string;
  status: string | null;
  type: string | null;
  createdOn: string | null;
  locality: string | null;
  sicCodes: string[];
}

export function parseCompanyProfile(body: string): { profile: CompanyProfile } | { problem: string } {
  const tooMuch = jsonShapeProblem(body, API_JSON_LIMITS);
  if (tooMuch) return { problem: `the company profile: ${tooMuch}` };
  let parsed: Record<string, unknown>;
  try {
    parsed = record(JSON.parse(body));
  } catch {
    return { problem: 'the company profile is not JSON' };
  }
  const number = text(parsed.company_number);
  const name = text(parsed.company_name);
  if (!number || !name) return { problem: 'the company profile has no company_number or company_name' };
  const office = record(parsed.registered_office_address);
  return {
    profile: {
      number: number.toUpperCase(),
      name,
      status: text(parsed.company_status),
      type: text(parsed.type),
      createdOn: day(parsed.date_of_creation),
      locality: text(office.locality),
      sicCodes: Array.isArray(parsed.sic_codes)
        ? parsed.sic_codes.filter((c): c is string => typeof c === 'string')
        : [],
    },
  };
}

/** A statement of capital's line: the total of one currency's issued shares, as stated. */
export interface CapitalFigure {
  currency: string;
  figure: number;
}

export interface CapitalFiling {
  transactionId: string;
  type: string;
  category: string;
  /** The day it was filed. */
  date: string;
  /** The day of the allotment (`description_values.date`), when stated. */
  actionDate: string | null;
  description: string | null;
  capital: CapitalFigure[];
}

/**
 * A filing history list's items (top level only: the SH01 statement of capital filed with an
 * incorporation sits in that filing's `associated_filings` and is no allotment).
 */
export function parseFilingHistory(body: string): { filings: CapitalFiling[] } | { problem: string } {
  const tooMuch = jsonShapeProblem(body, API_JSON_LIMITS);
  if (tooMuch) return { problem: `the filing history: ${tooMuch}` };
  let parsed: Record<string, unknown>;
  try {
    parsed = record(JSON.parse(body));
  } catch {
    return { problem: 'the filing history is not JSON' };
  }
  if (!Array.isArray(parsed.items)) return { problem: 'the filing history has no items' };
  const filings: CapitalFiling[] = [];
  for (const raw of parsed.items) {
    const item = record(raw);
    const transactionId = text(item.transaction_id);
    const date = day(item.date);
    if (!transactionId || !date) continue;
    const values = record(item.description_values);
    const capital = Array.isArray(values.capital) ? values.capital.map(record) : [];
    filings.push({
      transactionId,
      type: text(item.type) ?? '',
      category: text(item.category) ?? '',
      date,
      actionDate: day(values.date) ?? day(item.action_date),
      description: text(item.description),
      capital: capital.flatMap((line) => {
        const currency = text(line.currency);
        // Figures are written with thousands separators: "34,253,377".
        const figure = Number(String(line.figure ?? '').replace(/,/g, ''));
        return currency && Number.isFinite(figure) && String(line.figure ?? '').trim() !== ''
          ? [{ currency: currency.toUpperCase(), figure }]
          : [];
      }),
    });
  }
  return { filings };
}

export interface SearchedCompany {
  number: string;
  title: string;
  status: string | null;
}

/** A company search's results (`items[]`: `title`, `company_number`, `company_status`). */
export function parseCompanySearch(body: string): { companies: SearchedCompany[] } | { problem: string } {
  const tooMuch = jsonShapeProblem(body, API_JSON_LIMITS);
  if (tooMuch) return { problem: `the company search: ${tooMuch}` };
  let parsed: Record<string, unknown>;
  try {
    parsed = record(JSON.parse(body));
  } catch {
    return { problem: 'the company search is not JSON' };
  }
  const items = Array.isArray(parsed.items) ? parsed.items.map(record) : [];
  return {
    companies: items.flatMap((item) => {
      const number = text(item.company_number);
      const title = text(item.title);
      return number && title ? [{ number: number.toUpperCase(), title, status: text(item.company_status) }] : [];
    }),
  };
}
