/**
 * Text comparison shared by the catalogues: the case- and accent-insensitive
 * key under which names are indexed, and the bounded edit distance behind
 * "did you mean" suggestions.
 */

// Letters that NFD does not decompose into a base letter plus a mark.
const UNDECOMPOSABLE: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};
const UNDECOMPOSABLE_RE = new RegExp(`[${Object.keys(UNDECOMPOSABLE).join('')}]`, 'g');

/**
 * Lower case, no diacritics, `&` read as "and", apostrophes and dots dropped
 * (so "U.S.A." is "usa" and "Côte d'Or" is "cote dor"), every other run of
 * non-alphanumerics one space.
 */
export function foldText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(UNDECOMPOSABLE_RE, (ch) => UNDECOMPOSABLE[ch] ?? ch)
    .replace(/&/g, ' and ')
    .replace(/['’`.]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

// Grown on demand, never shrunk; see boundedEditDistance.
let rows = new Int32Array(64 * 3);

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition,
 * so "Frnace" is one edit from "France"), abandoned as soon as it must exceed
 * `max`: the answer is then `max + 1`. Suggestion lookups scan thousands of
 * names, and the early exit is what keeps that cheap.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;

  const width = b.length + 1;
  if (rows.length < width * 3) rows = new Int32Array(width * 3 * 2);
  // Three rows of one reused buffer, rotated by offset: no allocation per call.
  let prevPrev = 0;
  let prev = width;
  let current = width * 2;
  for (let j = 0; j <= b.length; j++) rows[prev + j] = j;

  for (let i = 1; i <= a.length; i++) {
    rows[current] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cb = b.charCodeAt(j - 1);
      let value = rows[prev + j - 1] + (ca === cb ? 0 : 1);
      if (rows[prev + j] + 1 < value) value = rows[prev + j] + 1;
      if (rows[current + j - 1] + 1 < value) value = rows[current + j - 1] + 1;
      if (
        i > 1 &&
        j > 1 &&
        ca === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === cb &&
        rows[prevPrev + j - 2] + 1 < value
      ) {
        value = rows[prevPrev + j - 2] + 1;
      }
      rows[current + j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    const recycled = prevPrev;
    prevPrev = prev;
    prev = current;
    current = recycled;
  }
  const distance = rows[prev + b.length];
  return distance > max ? max + 1 : distance;
}

/** How far a misspelling of a name this long may be from it and still be suggested. */
export function suggestionTolerance(length: number): number {
  if (length <= 3) return 1;
  if (length <= 6) return 2;
  return 3;
}
