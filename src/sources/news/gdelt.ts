import { API_JSON_LIMITS, jsonShapeProblem } from '../kit/document-limits';

/**
 * The GDELT DOC 2.0 API's article list (https://blog.gdeltproject.org/gdelt-doc-2-0-api-debuts/):
 * `GET /api/v2/doc/doc?query=…&mode=artlist&format=json`, answering
 * `{"articles": [{url, url_mobile, title, seendate, socialimage, domain, language, sourcecountry}]}`,
 * or `{}` when nothing matched. A query GDELT refuses (a phrase too short, a bad operator) is
 * answered with HTTP 200 and a sentence of plain text (text/html), not JSON.
 */
export const GDELT_HOST = 'api.gdeltproject.org';
/** "Please limit requests to one every 5 seconds": GDELT's own words in its 429 answers. */
export const GDELT_REQUEST_INTERVAL_MS = 5000;
/** The API keeps a rolling window of about three months. */
export const GDELT_WINDOW_DAYS = 90;
/** The API answers at most 250 articles a request. */
export const GDELT_MAX_RECORDS = 250;

export interface GdeltArticle {
  url: string;
  title: string;
  /** When GDELT saw the article (`seendate`), as an ISO timestamp. */
  seenAt: string | null;
  domain: string;
  language: string;
  sourceCountry: string;
}

export type GdeltArtlist = { articles: GdeltArticle[] } | { problem: string };

/** English articles naming the exact phrase, newest first, seen between `from` and `to`. */
export function gdeltSearchUrl(phrase: string, from: Date, to: Date, maxRecords: number): string {
  const params = new URLSearchParams({
    query: `"${phrase.replace(/"/g, '')}" sourcelang:english`,
    mode: 'artlist',
    format: 'json',
    maxrecords: String(Math.min(GDELT_MAX_RECORDS, maxRecords)),
    sort: 'datedesc',
    startdatetime: gdeltTime(from),
    enddatetime: gdeltTime(to),
  });
  return `https://${GDELT_HOST}/api/v2/doc/doc?${params.toString()}`;
}

/** The artlist answer's articles; GDELT's plain-text refusals and anything not of the documented form are problems. */
export function parseGdeltArtlist(body: string): GdeltArtlist {
  const text = body.trim();
  if (text === '') return { articles: [] };
  if (!text.startsWith('{')) return { problem: `GDELT refused the query: ${text.replace(/\s+/g, ' ').slice(0, 200)}` };
  const tooMuch = jsonShapeProblem(text, API_JSON_LIMITS);
  if (tooMuch) return { problem: tooMuch };
  let document: unknown;
  try {
    document = JSON.parse(text) as unknown;
  } catch (err) {
    // GDELT writes some titles with escapes JSON does not have (`\'`, `\x`): each article is read on its own.
    const each = articleTexts(text);
    if (each === null) return { problem: `not JSON: ${(err as Error).message}` };
    document = { articles: each.flatMap((article) => parsedOrNothing(article)) };
  }
  if (!document || typeof document !== 'object' || Array.isArray(document))
    return { problem: 'the document does not have the expected form (an object)' };
  const list = (document as Record<string, unknown>).articles;
  if (list === undefined) return { articles: [] };
  if (!Array.isArray(list))
    return { problem: 'the document does not have the expected form ("articles" is not a list)' };
  const articles: GdeltArticle[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const article = item as Record<string, unknown>;
    if (typeof article.url !== 'string' || !/^https?:\/\//i.test(article.url)) continue;
    articles.push({
      url: article.url,
      title: stringOf(article.title),
      seenAt: seenAtOf(stringOf(article.seendate)),
      domain: stringOf(article.domain),
      language: stringOf(article.language),
      sourceCountry: stringOf(article.sourcecountry),
    });
  }
  return { articles };
}

/**
 * The text of each object of the answer's `"articles"` list, found by brackets outside strings
 * (a string's escape, valid or not, is skipped with its next character); null when there is no list.
 */
function articleTexts(text: string): string[] | null {
  const key = /"articles"\s*:\s*\[/.exec(text);
  if (!key) return null;
  const texts: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = key.index + key[0].length; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if (c === '}' || c === ']') {
      if (depth === 0) break;
      if (--depth === 0 && start >= 0) texts.push(text.slice(start, i + 1));
    }
  }
  return texts;
}

function parsedOrNothing(text: string): unknown[] {
  try {
    return [JSON.parse(text) as unknown];
  } catch {
    return [];
  }
}

const stringOf = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** `20261124T093000Z` → `2026-11-24T09:30:00.000Z`. */
function seenAtOf(text: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return null;
  const at = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** `YYYYMMDDHHMMSS` in UTC, the form of `startdatetime` and `enddatetime`. */
function gdeltTime(at: Date): string {
  return at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
