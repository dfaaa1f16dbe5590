import { STREAM_ORIGIN, day, record, streamEnvelopeOf, text } from './records';

/**
 * The persons-with-significant-control stream (developer-specs.company-information.service.gov.uk,
 * streaming API "PSCs"): the officers stream's envelope around a PSC item (`kind`, `name`,
 * `natures_of_control[]`, `notified_on`, `ceased_on`, `identification`, `links.self`).
 */

export const pscStreamUrl = (timepoint: number | null) =>
  `${STREAM_ORIGIN}/persons-with-significant-control${timepoint === null ? '' : `?timepoint=${timepoint}`}`;

/** The public page of a company's register of persons with significant control: the deal's record. */
export const pscRegisterPageUrl = (number: string) =>
  `https://find-and-update.company-information.service.gov.uk/company/${encodeURIComponent(number)}/persons-with-significant-control`;

/** One PSC notification read from the stream. */
export interface ControlNotice {
  timepoint: number;
  type: string;
  pscId: string;
  companyNumber: string;
  kind: string;
  name: string;
  naturesOfControl: string[];
  notifiedOn: string | null;
  ceasedOn: string | null;
  /** `identification.registration_number`, as a Companies House number when it looks like one. */
  registrationNumber: string | null;
  countryRegistered: string | null;
}

/** A blank line is a heartbeat (`null`); anything but a PSC with a name is a problem of that line alone. */
export function parsePscLine(line: string): ControlNotice | { problem: string; timepoint: number | null } | null {
  const read = streamEnvelopeOf(line);
  if (read === null || 'problem' in read) return read;
  const { envelope, event, timepoint, uri } = read;
  // /company/{company_number}/persons-with-significant-control/{kind}/{psc_id}
  const match = /^\/company\/([^/]+)\/persons-with-significant-control\/(?:[^/]+\/)?([^/?]+)/.exec(uri);
  const data = record(envelope.data);
  const kind = text(data.kind);
  if (!match || !kind) return { problem: `a PSC event that is not a PSC (${uri})`, timepoint };
  const identification = record(data.identification);
  return {
    timepoint,
    type: text(event.type) ?? 'changed',
    pscId: text(envelope.resource_id) ?? match[2]!,
    companyNumber: decodeURIComponent(match[1]!).toUpperCase(),
    kind,
    // A null name is kept as none: only a corporate entity's deal needs it, and is then skipped.
    name: text(data.name) ?? '',
    naturesOfControl: Array.isArray(data.natures_of_control)
      ? data.natures_of_control.filter((n): n is string => typeof n === 'string')
      : [],
    notifiedOn: day(data.notified_on),
    ceasedOn: day(data.ceased_on),
    registrationNumber: companyNumberOf(text(identification.registration_number)),
    countryRegistered: text(identification.country_registered),
  };
}

/**
 * A registration number as the register writes company numbers: eight characters, digits
 * padded with zeros ("9876543" → "09876543", "sc123456" → "SC123456"); other forms kept as stated.
 */
export function companyNumberOf(value: string | null): string | null {
  if (!value) return null;
  const compact = value.replace(/[\s.]/g, '').toUpperCase();
  if (/^\d{1,8}$/.test(compact)) return compact.padStart(8, '0');
  if (/^[A-Z]{2}\d{1,6}$/.test(compact)) return compact.slice(0, 2) + compact.slice(2).padStart(6, '0');
  return compact.slice(0, 40) || null;
}

/** Shares or votes of more than 75 %, held directly or as a firm or trust (`-as-firm`, `-as-trust`, …). */
const CONTROLLING = /^(?:ownership-of-shares|voting-rights)-75-to-100-percent(?:-[a-z-]+)?$/;

/**
 * A new corporate owner: a corporate entity notified (not ceased) holding more than 75 % of the
 * shares or votes. The company was acquired by that entity (docs/sources/companies-house.md, "Deals").
 */
export function isTakeover(notice: ControlNotice): boolean {
  return (
    notice.type === 'changed' &&
    notice.kind === 'corporate-entity-person-with-significant-control' &&
    !notice.ceasedOn &&
    !!notice.notifiedOn &&
    !!notice.name &&
    notice.naturesOfControl.some((nature) => CONTROLLING.test(nature))
  );
}
