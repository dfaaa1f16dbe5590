import { plainTextOf } from '../kit/plain-text';

/** What an 8-K's text is read for: its whole text is at most this long (a press release exhibit is not read). */
const REPORT_MAX_CHARS = 400_000;

/**
 * The 8-K document of a complete submission (`<accession>.txt`): the `<DOCUMENT>` whose `<TYPE>`
 * is 8-K, its `<TEXT>` as plain text (HTML or plain). Null when the submission has none.
 */
export function currentReportText(submission: string): string | null {
  for (const [, document] of submission.matchAll(/<DOCUMENT>([\s\S]*?)(?:<\/DOCUMENT>|$)/gi)) {
    if (!/^\s*<TYPE>\s*8-K\s*$/im.test(document!.slice(0, 500))) continue;
    const text = /<TEXT>([\s\S]*?)(?:<\/TEXT>|$)/i.exec(document!)?.[1] ?? '';
    const plain = /<(html|body|p|div|font|table)\b/i.test(text) ? plainTextOf(text) : text;
    return plain.replace(/[\u00a0\t ]+/g, ' ').slice(0, REPORT_MAX_CHARS);
  }
  return null;
}

/** The part of the text under one item's heading ("Item 5.02 ..."), up to the next item's heading. */
export function itemSection(text: string, item: string): string | null {
  const escaped = item.replace('.', '\\.');
  const start = new RegExp(`item\\s*${escaped}\\b`, 'i').exec(text);
  if (!start) return null;
  const rest = text.slice(start.index + start[0].length);
  const next = /\n\s*item\s*\d\.\d\d\b/i.exec(rest);
  return rest.slice(0, next ? next.index : 20_000);
}

export interface Appointment {
  firstName: string;
  lastName: string;
  title: string;
}

const HONORIFIC = String.raw`(?:(?:Mr|Ms|Mrs|Dr)\.?\s+)?`;
/** "Jane B. Smith", "John O'Neil", "Mary Smith-Jones": two to four capitalised words. */
const NAME = String.raw`([A-Z][a-z]+(?:\s+[A-Z]\.)?(?:\s+(?:[A-Z][a-z]*[’'-]?[A-Z]?[a-z]+)){1,2})`;
/** A title: capitalised words (with "of", "and", "&" between), ending at the first other word. */
const TITLE = String.raw`([A-Z][A-Za-z-]*(?:\s+(?:of|and|&|[A-Z][A-Za-z-]*))*)`;
const AS = String.raw`(?:as|to serve as|to the (?:position|role|office) of)\s+(?:the\s+Company[’']s\s+|its\s+|our\s+|the\s+)?(?:new\s+)?(?:interim\s+)?`;
const AGE = String.raw`(?:,\s*(?:age\s*)?\d{2},?)?`;

/**
 * The appointments the text states in the patterns this source reads (docs/sources/sec-filings.md):
 * "appointed|named|elected NAME[, age NN,] as [the Company's] TITLE" and "NAME[, NN,] was|has
 * been|will be appointed|named|elected [as] TITLE"; "elected NAME to the Board" is a
 * Director. A title must name a role (Officer, President, Director, Chair...); anything else
 * names nobody.
 */
export function statedAppointments(section: string): Appointment[] {
  const text = section.replace(/\s+/g, ' ');
  const found = new Map<string, Appointment>();
  const add = (name: string, rawTitle: string) => {
    const title = rawTitle.replace(/\s+(of|and|&)$/i, '').trim();
    if (
      !/\b(Officer|President|Director|Chair|Chairman|Chairwoman|Counsel|Secretary|Treasurer|Controller)\b/.test(title)
    )
      return;
    const words = name.split(/\s+/);
    if (words.some((word) => /^(Board|Company|Directors?|Officer|Chief|Inc|Corporation)$/i.test(word))) return;
    const firstName = words[0]!;
    const lastName = words[words.length - 1]!;
    found.set(`${firstName} ${lastName}`.toLowerCase(), { firstName, lastName, title: title.slice(0, 200) });
  };
  const patterns = [
    new RegExp(
      String.raw`\b(?:appointed|named|elected|promoted)\s+${HONORIFIC}${NAME}${AGE}\s*,?\s+${AS}${TITLE}`,
      'g',
    ),
    new RegExp(
      String.raw`${HONORIFIC}${NAME}${AGE}\s+(?:was|has been|will be|is)\s+(?:appointed|named|elected|promoted)\s+(?:\w+\s+)?(?:${AS})?${TITLE}`,
      'g',
    ),
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) add(match[1]!, match[2]!);
  for (const match of text.matchAll(
    new RegExp(
      String.raw`\belected\s+${HONORIFIC}${NAME}${AGE}\s+(?:as a member of|to)\s+the\s+(?:Company[’']s\s+)?Board`,
      'g',
    ),
  ))
    add(match[1]!, 'Director');
  return [...found.values()];
}

export interface StatedDeal {
  dealType: 'Merger' | 'Acquisition';
  /** The filer's side, when the text says it. */
  role: 'acquiree' | 'acquirer' | '';
  /** The other party's name, when the text defines it. */
  counterparty: string | null;
}

const PARTY = String.raw`([A-Z][A-Za-z0-9.,&'’ -]{1,80}?)`;

/**
 * A deal an 8-K states (docs/sources/sec-filings.md): Item 1.01 only with a merger agreement
 * ("Agreement and Plan of Merger"), Item 2.01 only for an acquisition or merger completed (an
 * asset sale is no deal here). The filer is the acquiree when another party is defined as
 * "Parent" or the filer becomes "a wholly owned subsidiary of" it; the acquirer when it
 * "acquired"/"completed its acquisition of" another or its own "Merger Sub" merges into that one.
 */
export function statedDeal(text: string, item: '1.01' | '2.01'): StatedDeal | null {
  const section = itemSection(text, item)?.replace(/\s+/g, ' ');
  if (!section) return null;
  if (item === '1.01' && !/Agreement and Plan of Merger|Merger Agreement/i.test(section)) return null;
  if (item === '2.01' && !/\b(merger|acquisition|acquired)\b/i.test(section)) return null;
  const dealType = item === '1.01' ? 'Merger' : 'Acquisition';
  const parent = new RegExp(String.raw`${PARTY},?\s+(?:a\s+[A-Za-z ]+?\s+)?\((?:the\s+)?["“]Parent["”]\)`).exec(
    section,
  );
  const subsidiaryOf = new RegExp(
    String.raw`(?:the\s+Company|we)\s+(?:became|will become|becoming)\s+an?\s+(?:direct\s+|indirect\s+)?wholly[- ]owned\s+subsidiary\s+of\s+${PARTY}[.,;(]`,
  ).exec(section);
  if (parent || subsidiaryOf)
    return { dealType, role: 'acquiree', counterparty: cleanParty((parent ?? subsidiaryOf)![1]!) };
  const acquired = new RegExp(
    String.raw`(?:completed\s+(?:its|the)\s+(?:previously\s+announced\s+)?acquisition\s+of|(?:the\s+Company|we)\s+(?:acquired|will acquire))\s+(?:all\s+of\s+the\s+(?:outstanding\s+)?(?:shares|equity|stock)\s+of\s+)?${PARTY}(?:\s*[(;]|(?<!\b(?:Inc|Corp|Ltd|Co|L\.P|N\.V|S\.A))\.(?:\s|$)|,\s+(?:a|an|the|which)\s)`,
  ).exec(section);
  if (acquired) return { dealType, role: 'acquirer', counterparty: cleanParty(acquired[1]!) };
  return { dealType, role: '', counterparty: null };
}

const cleanParty = (name: string) =>
  name
    .replace(/^(?:(?:the\s+)?Company,\s*)?(?:(?:the|and|with)\s+)?/i, '')
    .replace(/[\s,]+$/, '')
    .trim() || null;
