import { coreNameOf } from '../../catalogue/identifiers';

/**
 * The role of a company in a deal article, by where its name stands to the deal's verb
 * (docs/sources/news.md, "Deals"). English only, like the kind rules; a text whose clause does
 * not place the company says no role ('').
 */
export type DealRole = 'acquirer' | 'acquiree' | '';

export interface DealReading {
  dealType: 'Acquisition' | 'Merger';
  role: DealRole;
}

/** The bought one stands before these, the buyer after: "Acme is acquired by Globex", "Acme sold to Globex". */
const PASSIVE =
  /\b(?:acquired|bought|purchased|taken over|snapped up)(?:\s+[\p{L}\p{N}'’-]+){0,3}?\s+by\b|\b(?:sold|to be sold)\s+to\b|\bagrees? to be (?:acquired|bought)\b/iu;
/** The buyer stands before these, the bought one after: "Globex acquires Acme", "Globex to buy Acme". */
const ACTIVE =
  /\b(?:acquires?|acquired|acquiring|to acquire|agrees? to (?:acquire|buy|purchase)|buys|bought|to buy|buying|purchases?|purchased|to purchase|complet(?:es?|ed) (?:the |its )?(?:acquisition|purchase|takeover) of|(?:'s|’s) (?:acquisition|purchase|takeover) of|takes? over|took over|snaps? up|snapped up|buyout of|takeover (?:of|bid for))\b/iu;
/** A merger of equals names no buyer. */
const MERGER =
  /\b(?:merges? with|merging with|to merge|merger (?:with|of|between|agreement)|combine with|all-stock merger)\b/iu;

/**
 * The deal a headline and lead describe and the company's role in it. Each sentence is read in
 * turn (headline first); the first one that names the company and a deal phrase decides:
 *  - a merger phrase → Merger, no role;
 *  - a passive phrase ("acquired by", "sold to"): the company before it is the acquiree, after it the acquirer;
 *  - an active phrase ("acquires", "to buy", "completes acquisition of"): before it the acquirer, after it the acquiree.
 * Before means within SUBJECT_GAP_WORDS words of the phrase; after means within OBJECT_GAP_WORDS
 * words with no comma between. A sentence naming the company only as a bystander of the phrase
 * ("…, a partner of Acme"), or none deciding, leaves the role ''.
 */
export function readDeal(headline: string, lead: string, companyName: string): DealReading {
  const name = nameRegex(companyName);
  for (const sentence of sentencesOf(`${headline}\n${lead}`)) {
    const mentions = name
      ? [...sentence.matchAll(name)].map((m) => ({ at: m.index!, end: m.index! + m[0].length }))
      : [];
    if (mentions.length === 0) continue;
    if (MERGER.test(sentence)) return { dealType: 'Merger', role: '' };
    for (const [phrase, beforeIs, afterIs] of [
      [PASSIVE, 'acquiree', 'acquirer'],
      [ACTIVE, 'acquirer', 'acquiree'],
    ] as const) {
      const found = phrase.exec(sentence);
      if (!found) continue;
      const start = found.index;
      const end = start + found[0].length;
      // The subject wins over a later mention: "Acme buys Acme Labs' rival" is Acme the buyer.
      if (mentions.some((m) => m.end <= start && wordsIn(sentence.slice(m.end, start)) <= SUBJECT_GAP_WORDS))
        return { dealType: 'Acquisition', role: beforeIs };
      // The object follows closely, in the same clause ("acquires UK data startup Acme"), not "…, an Acme partner".
      if (
        mentions.some(
          (m) =>
            m.at >= end &&
            !/[,;:(]/.test(sentence.slice(end, m.at)) &&
            wordsIn(sentence.slice(end, m.at)) <= OBJECT_GAP_WORDS,
        )
      )
        return { dealType: 'Acquisition', role: afterIs };
    }
  }
  return { dealType: 'Acquisition', role: '' };
}

/** Words a subject's apposition may hold ("Acme, the London robot maker, acquires"). */
const SUBJECT_GAP_WORDS = 8;
/** Words before an object ("acquires UK data startup Acme"). */
const OBJECT_GAP_WORDS = 5;

const wordsIn = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z"“])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function nameRegex(companyName: string): RegExp | null {
  const core = coreNameOf(companyName).trim();
  if (!core) return null;
  const words = core
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, 'giu');
}
