import { sizeProblem, SEC_XML_LIMITS } from '../kit/document-limits';
import { child, listAt, readXml, textAt } from '../kit/edgar/xml';

/**
 * A Form 3 (`ownershipDocument`, EDGAR Ownership XML technical specification v3): the issuer,
 * the reporting owners with their relationship to it, and the date of the event that made them
 * insiders (`periodOfReport`).
 */
export interface OwnershipReport {
  documentType: string;
  periodOfReport: string | null;
  issuer: { cik: string; name: string; ticker: string | null };
  owners: ReportingOwner[];
}

export interface ReportingOwner {
  cik: string;
  /** As EDGAR writes it: "LAST FIRST MIDDLE", in capitals. */
  name: string;
  city: string | null;
  stateOrCountry: string | null;
  isDirector: boolean;
  isOfficer: boolean;
  isTenPercentOwner: boolean;
  isOther: boolean;
  officerTitle: string | null;
}

/** A flag as filers write it: `1`/`0`, and `true`/`false` too. */
const flag = (value: string | null) => value !== null && /^(1|true)$/i.test(value.trim());
const CIK = /^\d{1,10}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The ownership XML of a filing: the document itself, or the complete submission (`<accession>.txt`),
 * whose `<XML>` section holds it.
 */
export function parseOwnershipReport(text: string): { report: OwnershipReport } | { problem: string } {
  const tooLarge = sizeProblem(text, SEC_XML_LIMITS.maxChars * 2);
  if (tooLarge) return { problem: tooLarge };
  const section = /<XML>\s*([\s\S]*?)\s*<\/XML>/i.exec(text)?.[1] ?? text;
  const xml = readXml(section);
  if ('problem' in xml) return xml;
  const doc = child(xml.root, 'ownershipDocument');
  if (!doc) return { problem: 'not an ownership report: no ownershipDocument element' };
  // `issuer` is a repeated tag of Form D (its issuerList): here there is one.
  const issuerNode = listAt(doc, 'issuer')[0] ?? child(doc, 'issuer');
  const issuerCik = textAt(issuerNode, 'issuerCik');
  const issuerName = textAt(issuerNode, 'issuerName');
  if (!issuerCik || !CIK.test(issuerCik) || !issuerName) return { problem: 'the report names no issuer CIK and name' };
  const owners: ReportingOwner[] = [];
  for (const owner of listAt(doc, 'reportingOwner')) {
    const cik = textAt(owner, 'reportingOwnerId', 'rptOwnerCik');
    const name = textAt(owner, 'reportingOwnerId', 'rptOwnerName');
    if (!cik || !CIK.test(cik) || !name) continue;
    const relation = child(owner, 'reportingOwnerRelationship');
    owners.push({
      cik: cik.padStart(10, '0'),
      name,
      city: textAt(owner, 'reportingOwnerAddress', 'rptOwnerCity'),
      stateOrCountry: textAt(owner, 'reportingOwnerAddress', 'rptOwnerState'),
      isDirector: flag(textAt(relation, 'isDirector')),
      isOfficer: flag(textAt(relation, 'isOfficer')),
      isTenPercentOwner: flag(textAt(relation, 'isTenPercentOwner')),
      isOther: flag(textAt(relation, 'isOther')),
      officerTitle: textAt(relation, 'officerTitle'),
    });
  }
  const period = textAt(doc, 'periodOfReport');
  return {
    report: {
      documentType: textAt(doc, 'documentType') ?? '',
      periodOfReport: period && DAY.test(period) ? period : null,
      issuer: {
        cik: issuerCik.padStart(10, '0'),
        name: issuerName,
        ticker: textAt(issuerNode, 'issuerTradingSymbol'),
      },
      owners,
    },
  };
}

/** Words that make a reporting owner an organisation (a fund, a trust), never a person. */
const ORGANISATION_WORDS =
  /\b(inc|incorporated|corp|corporation|co|company|ltd|limited|llc|l\.l\.c|lp|l\.p|llp|plc|trust|fund|funds|partners|partnership|capital|holdings|group|management|ventures|investments|advisors|advisers|associates|foundation|bank|sa|ag|gmbh|nv|bv)\b\.?/i;
const SUFFIXES = new Set([
  'JR',
  'JR.',
  'SR',
  'SR.',
  'II',
  'III',
  'IV',
  'V',
  'MD',
  'M.D.',
  'PHD',
  'PH.D.',
  'ESQ',
  'ESQ.',
]);

/**
 * A reporting owner's name as first and last name. EDGAR writes "LAST FIRST MIDDLE" ("GARRETT
 * MARK"); filers also send "Last, First Middle", "LAST FIRST M. JR" and, now and then, "First
 * Last" in mixed case. Null for an organisation or a single word.
 */
export function ownerNameParts(raw: string): { firstName: string; lastName: string; suffix: string | null } | null {
  const name = raw.replace(/\s+/g, ' ').trim();
  if (!name || ORGANISATION_WORDS.test(name) || /[&/\d]/.test(name)) return null;
  if (name.includes(',')) {
    const [last, rest] = name.split(/,(.*)/s).map((part) => (part ?? '').trim());
    const words = rest!.split(' ').filter(Boolean);
    const suffix = words.length > 1 && SUFFIXES.has(words[words.length - 1]!.toUpperCase()) ? words.pop()! : null;
    if (!last || words.length === 0 || SUFFIXES.has(words[0]!.toUpperCase())) return null;
    return { firstName: words[0]!, lastName: last, suffix };
  }
  const words = name.split(' ');
  const suffix = words.length > 2 && SUFFIXES.has(words[words.length - 1]!.toUpperCase()) ? words.pop()! : null;
  if (words.length < 2) return null;
  // Mixed case ("Jane Q. Doe") is the filer writing the name in reading order.
  if (name !== name.toUpperCase()) return { firstName: words[0]!, lastName: words[words.length - 1]!, suffix };
  // "VAN DER BERG ANNA" keeps its particles with the last name.
  let cut = 1;
  while (cut < words.length - 1 && /^(VAN|VON|DE|DER|DEN|DI|DA|DEL|LA|LE|ST\.?|MC|MAC)$/.test(words[cut - 1]!)) cut++;
  return { firstName: words[cut]!, lastName: words.slice(0, cut).join(' '), suffix };
}

/** One of an owner's own filings, listed by EDGAR's company browse feed. */
export interface OwnerFiling {
  accession: string;
  form: string;
  filedOn: string;
}

/**
 * An owner's filings as `browse-edgar?action=getcompany&CIK=<owner>&type=3&output=atom` lists
 * them, newest first: each `entry` holds `content/accession-number`, `filing-date`,
 * `filing-type` (the id and `category@term` say the same); `listed` counts the page's entries.
 */
export function parseOwnerFilings(text: string): { filings: OwnerFiling[]; listed: number } | { problem: string } {
  const xml = readXml(text);
  if ('problem' in xml) return xml;
  if (!child(xml.root, 'feed')) return { problem: 'not an Atom feed: no feed element' };
  const entries = listAt(xml.root, 'feed', 'entry');
  const filings: OwnerFiling[] = [];
  for (const entry of entries) {
    const accession =
      textAt(entry, 'content', 'accession-number') ??
      /accession-number=(\d{10}-\d{2}-\d{6})/.exec(textAt(entry, 'id') ?? '')?.[1] ??
      null;
    const form = textAt(entry, 'content', 'filing-type') ?? child(entry, 'category')?.['@term'];
    const filedOn = textAt(entry, 'content', 'filing-date') ?? textAt(entry, 'updated')?.slice(0, 10) ?? null;
    if (!accession || !/^\d{10}-\d{2}-\d{6}$/.test(accession) || typeof form !== 'string') continue;
    if (!filedOn || !DAY.test(filedOn)) continue;
    filings.push({ accession, form, filedOn });
  }
  return { filings, listed: entries.length };
}
