import { API_JSON_LIMITS, jsonShapeProblem } from '../kit/document-limits';
import { titleCase } from '../kit/record-names';
import { REST_ORIGIN, appointmentOfItem, day, record, text, type OfficerAppointment } from './records';

/**
 * Companies House's officer documents (developer-specs.company-information.service.gov.uk,
 * "Officers" and "Officer appointments"): a company's officer list and an officer's own
 * appointment list, both paged by `start_index` and `items_per_page` with a `total_results`.
 */

/** Items a page of either list asks for (the API gives at most 100). */
export const OFFICER_PAGE_SIZE = 50;
/** Pages of one list read at most: an officer with hundreds of appointments is a nominee service, not a career. */
export const MAX_OFFICER_PAGES = 4;

/** A company's officers, newest appointments first. */
export const companyOfficersUrl = (number: string, startIndex: number) =>
  `${REST_ORIGIN}/company/${encodeURIComponent(number)}/officers?items_per_page=${OFFICER_PAGE_SIZE}&start_index=${startIndex}&order_by=appointed_on`;

/** An officer's appointments, from the path the officer item links (`/officers/{officer_id}/appointments`). */
export const officerAppointmentsUrl = (path: string, startIndex: number) =>
  `${REST_ORIGIN}${path}?items_per_page=${OFFICER_PAGE_SIZE}&start_index=${startIndex}`;

/** One appointment of an officer's own list. */
export interface CareerAppointment {
  companyNumber: string | null;
  companyName: string;
  officerRole: string | null;
  occupation: string | null;
  appointedOn: string | null;
  resignedOn: string | null;
}

export interface ListPage<T> {
  items: T[];
  /** `total_results` as stated (null when absent or not a number). */
  total: number | null;
  /** Items the page had that were not usable (a null name, no role). */
  skipped: number;
}

function parsePage(body: string, what: string): { items: unknown[]; total: number | null } | { problem: string } {
  const tooMuch = jsonShapeProblem(body, API_JSON_LIMITS);
  if (tooMuch) return { problem: `${what}: ${tooMuch}` };
  let parsed: Record<string, unknown>;
  try {
    parsed = record(JSON.parse(body));
  } catch {
    return { problem: `${what} is not JSON` };
  }
  if (!Array.isArray(parsed.items)) return { problem: `${what} has no items` };
  const total = typeof parsed.total_results === 'number' ? parsed.total_results : Number(parsed.total_results);
  return { items: parsed.items, total: Number.isSafeInteger(total) && total >= 0 ? total : null };
}

/** An officer's appointment list (`items[]`: `appointed_to` {company_name, company_number}, dates, role, occupation). */
export function parseAppointmentList(body: string): ListPage<CareerAppointment> | { problem: string } {
  const page = parsePage(body, 'the appointment list');
  if ('problem' in page) return page;
  const items: CareerAppointment[] = [];
  let skipped = 0;
  for (const raw of page.items) {
    const item = record(raw);
    const to = record(item.appointed_to);
    const companyNumber = text(to.company_number)?.toUpperCase() ?? null;
    const companyName = text(to.company_name);
    // A null company name is that item's fault alone: it cannot name a previous company.
    if (!companyName) {
      skipped++;
      continue;
    }
    items.push({
      companyNumber,
      companyName,
      officerRole: text(item.officer_role),
      occupation: text(item.occupation),
      appointedOn: day(item.appointed_on),
      resignedOn: day(item.resigned_on),
    });
  }
  return { items, total: page.total, skipped };
}

/**
 * A company's officer list: each item as the stream gives it, its appointment id from
 * `links.self` (`/company/{n}/appointments/{appointment_id}`). An item without a name, a role
 * or that link is skipped alone.
 */
export function parseOfficerList(
  body: string,
  companyNumber: string,
): ListPage<Omit<OfficerAppointment, 'timepoint'>> | { problem: string } {
  const page = parsePage(body, 'the officer list');
  if ('problem' in page) return page;
  const items: Omit<OfficerAppointment, 'timepoint'>[] = [];
  let skipped = 0;
  for (const raw of page.items) {
    const self = text(record(record(raw).links).self) ?? '';
    const id = /^\/company\/[^/]+\/appointments\/([^/?#]+)$/.exec(self)?.[1];
    const item = id ? appointmentOfItem(raw, companyNumber) : null;
    if (!id || !item) {
      skipped++;
      continue;
    }
    items.push({ ...item, type: 'changed', appointmentId: id });
  }
  return { items, total: page.total, skipped };
}

/** How far back an ended appointment still counts as the job before. */
const PREVIOUS_JOB_DAYS = 365;
const DAY_MS = 86_400_000;

/**
 * The job before a new appointment, from the officer's own list: the latest other appointment
 * (at another company) that began before it and still runs or ended within a year before it.
 */
export function previousAppointment(
  career: CareerAppointment[],
  appointment: Pick<OfficerAppointment, 'companyNumber' | 'appointedOn'>,
): CareerAppointment | null {
  if (!appointment.appointedOn) return null;
  const started = Date.parse(`${appointment.appointedOn}T00:00:00Z`);
  const since = started - PREVIOUS_JOB_DAYS * DAY_MS;
  const before = career.filter((job) => {
    if (job.companyNumber && job.companyNumber === appointment.companyNumber) return false;
    if (!job.appointedOn || Date.parse(`${job.appointedOn}T00:00:00Z`) > started) return false;
    return !job.resignedOn || Date.parse(`${job.resignedOn}T00:00:00Z`) >= since;
  });
  // The latest begun; of two begun the same day, the one still running.
  before.sort(
    (a, b) => b.appointedOn!.localeCompare(a.appointedOn!) || Number(!!a.resignedOn) - Number(!!b.resignedOn),
  );
  return before[0] ?? null;
}

/** The appointments that are decision makers, and the title their person gets when no occupation says more. */
export const DECISION_MAKER_ROLES: Readonly<Record<string, string>> = {
  director: 'Director',
  'llp-designated-member': 'Designated Member',
  'llp-member': 'Member',
};

/** Occupations that say no more than the role itself (or nothing): the role is the title then. */
const UNINFORMATIVE_OCCUPATIONS = new Set([
  'director',
  'company director',
  'directors',
  'none',
  'n/a',
  'na',
  'nil',
  'not applicable',
  'unknown',
  '-',
]);

/**
 * The title of an appointment: its `occupation` ("Chief Financial Officer"), else its role
 * ("Director") when the occupation is missing or only restates the role.
 */
export function appointmentTitle(occupation: string | null, officerRole: string | null): string {
  const role = (officerRole && DECISION_MAKER_ROLES[officerRole]) ?? roleWords(officerRole);
  const stated = occupation?.replace(/\s+/g, ' ').trim() ?? '';
  if (!stated || UNINFORMATIVE_OCCUPATIONS.has(stated.toLowerCase())) return role;
  // Some register entries are all capitals ("CHIEF FINANCIAL OFFICER").
  return titleCase(stated).slice(0, 200);
}

/** "corporate-nominee-director" → "Corporate Nominee Director". */
const roleWords = (role: string | null) =>
  (role ?? 'officer')
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
