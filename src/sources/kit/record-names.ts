/** The spellings sources give the records they ingest: ids from names, names from registers. */

/** A name as an id part: ASCII letters and digits, hyphens between; empty when none is left. */
export const slug = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Registers (EDGAR, Companies House) often write names and places in capitals: "SAN FRANCISCO" → "San Francisco"; mixed case is kept. */
export function titleCase(text: string): string {
  if (text !== text.toUpperCase()) return text;
  return text
    .toLowerCase()
    .replace(/(^|[\s'-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}
