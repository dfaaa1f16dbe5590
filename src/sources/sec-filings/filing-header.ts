import { sizeProblem } from '../kit/document-limits';

/** A party of a filing as its header names it (`<COMPANY-DATA>` and its business address). */
export interface HeaderParty {
  role: 'subject' | 'filed-by' | 'filer';
  cik: string;
  name: string;
  city: string | null;
  stateOrCountry: string | null;
  stateOfIncorporation: string | null;
}

export interface FilingHeader {
  form: string | null;
  /** 8-K items as numbers (`5.02`). */
  items: string[];
  /** `PERIOD` (the event's date on an 8-K), `YYYY-MM-DD`. */
  period: string | null;
  filedOn: string | null;
  parties: HeaderParty[];
}

/** A header is a few KB; the complete submission may follow it, and only the header is read. */
const HEADER_MAX_CHARS = 256 * 1024;

/** The `.txt` header words an item by its description, not its number (the research doc): the ones the source reads. */
const ITEM_DESCRIPTIONS: readonly [RegExp, string][] = [
  [/^entry into a material definitive agreement/i, '1.01'],
  [/^completion of acquisition or disposition of assets/i, '2.01'],
  [/^departure of directors or (certain )?(principal )?officers/i, '5.02'],
  [/^financial statements and exhibits/i, '9.01'],
];

const SECTIONS: Readonly<Record<string, HeaderParty['role'] | 'address' | 'other'>> = {
  'SUBJECT-COMPANY': 'subject',
  'SUBJECT COMPANY': 'subject',
  'FILED-BY': 'filed-by',
  'FILED BY': 'filed-by',
  FILER: 'filer',
  'REPORTING-OWNER': 'other',
  'REPORTING OWNER': 'other',
  ISSUER: 'other',
  'BUSINESS-ADDRESS': 'address',
  'BUSINESS ADDRESS': 'address',
};

const day = (value: string | undefined) =>
  value && /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : null;

/**
 * A filing's header, from `<accession>.hdr.sgml` (tags: `<TYPE>`, `<ITEMS>`, `<PERIOD>`,
 * `<SUBJECT-COMPANY>`/`<FILED-BY>`/`<FILER>` › `<COMPANY-DATA>` › `<CONFORMED-NAME>`, `<CIK>`)
 * or from the `<SEC-HEADER>` of the complete submission `<accession>.txt` (`CONFORMED
 * SUBMISSION TYPE:`, `ITEM INFORMATION:`, `SUBJECT COMPANY:` › `COMPANY CONFORMED NAME:`,
 * `CENTRAL INDEX KEY:`...). A party without a CIK and a name is left out.
 */
export function parseFilingHeader(text: string): { header: FilingHeader } | { problem: string } {
  const head = text.slice(0, HEADER_MAX_CHARS);
  const end = head.search(/<\/SEC-HEADER>|<\/IMS-HEADER>|<DOCUMENT>/i);
  const body = end >= 0 ? head.slice(0, end) : head;
  if (end < 0 && sizeProblem(text, HEADER_MAX_CHARS)) return { problem: 'no end of the header in its first 256 KB' };
  const header: FilingHeader = { form: null, items: [], period: null, filedOn: null, parties: [] };
  let party: Partial<HeaderParty> | null = null;
  let inAddress = false;
  const close = () => {
    if (party?.role && party.cik && party.name) header.parties.push(party as HeaderParty);
    party = null;
    inAddress = false;
  };
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    // `<TAG>value` (SGML) or `KEY:<tabs>value` (the .txt header).
    const tagged = /^<([A-Z0-9-]+)>\s*(.*)$/.exec(line);
    const keyed = tagged ? null : /^([A-Z][A-Z0-9 ()/-]*?):\s*(.*)$/.exec(line);
    if (/^<\/[A-Z-]+>$/.test(line)) {
      const name = line.slice(2, -1);
      if (SECTIONS[name] === 'address') inAddress = false;
      else if (SECTIONS[name]) close();
      continue;
    }
    const key = tagged?.[1] ?? keyed?.[1];
    const value = (tagged?.[2] ?? keyed?.[2] ?? '').trim();
    if (!key) continue;
    const section = SECTIONS[key];
    if (section && !value) {
      if (section === 'address') inAddress = true;
      else {
        close();
        party =
          section === 'other' ? {} : { role: section, city: null, stateOrCountry: null, stateOfIncorporation: null };
      }
      continue;
    }
    if (key === 'MAIL-ADDRESS' || key === 'MAIL ADDRESS' || key === 'FORMER-COMPANY' || key === 'FORMER COMPANY') {
      inAddress = false;
      continue;
    }
    if (!value) continue;
    switch (key) {
      case 'TYPE':
      case 'CONFORMED SUBMISSION TYPE':
        header.form ??= value;
        break;
      case 'ITEMS':
        if (/^\d\.\d\d$/.test(value)) header.items.push(value);
        break;
      case 'ITEM INFORMATION': {
        const item = ITEM_DESCRIPTIONS.find(([pattern]) => pattern.test(value))?.[1];
        if (item) header.items.push(item);
        break;
      }
      case 'PERIOD':
      case 'CONFORMED PERIOD OF REPORT':
        header.period ??= day(value);
        break;
      case 'FILING-DATE':
      case 'FILED AS OF DATE':
        header.filedOn ??= day(value);
        break;
      case 'CONFORMED-NAME':
      case 'COMPANY CONFORMED NAME':
        if (party && party.role && !party.name) party.name = value.slice(0, 300);
        break;
      case 'CIK':
      case 'CENTRAL INDEX KEY':
        if (party && party.role && !party.cik && /^\d{1,10}$/.test(value)) party.cik = value.padStart(10, '0');
        break;
      case 'STATE-OF-INCORPORATION':
      case 'STATE OF INCORPORATION':
        if (party && party.role) party.stateOfIncorporation = value;
        break;
      case 'CITY':
        if (party && party.role && inAddress && !party.city) party.city = value.slice(0, 200);
        break;
      case 'STATE':
        if (party && party.role && inAddress && !party.stateOrCountry) party.stateOrCountry = value.slice(0, 10);
        break;
    }
  }
  close();
  header.items = [...new Set(header.items)];
  if (!header.form && header.parties.length === 0)
    return { problem: 'not an EDGAR filing header: no type and no party' };
  return { header };
}
