/**
 * How much of each document a source reads, and how much structure it accepts
 * (docs/decisions/sources.md, "Documents are bounded"). The download cap
 * (SOURCES_MAX_RESPONSE_BYTES) bounds what arrives; these bound what a parse may cost in memory
 * and time, checked before the parser builds anything. Sizes count the decoded text's characters.
 */
const MIB = 1024 * 1024;

export interface JsonLimits {
  /** Characters; a larger document is not read. */
  maxChars: number;
  /** Arrays and objects inside one another. */
  maxDepth: number;
  /** Arrays and objects in the whole document: each costs the parser an allocation. */
  maxContainers: number;
}

export interface XmlLimits {
  maxChars: number;
  /** Elements (start tags and empty tags), CDATA and comments not counted. */
  maxElements: number;
}

/**
 * An HTML page is cut, not refused: its head and the first part of its body say what the
 * sources need. 512 is the depth past which Chromium's parser stops nesting elements; deeper is
 * no real page, and htmlparser2's cost grows with the square of it.
 */
export const HTML_PAGE_LIMITS = { readChars: 1 * MIB, maxDepth: 512, maxListItems: 2000 } as const;

/** A whole board of one platform (Greenhouse with every description is the largest: a few MB). */
export const BOARD_JSON_LIMITS: JsonLimits = { maxChars: 8 * MIB, maxDepth: 64, maxContainers: 250_000 };
/** Personio's XML board. */
export const BOARD_XML_LIMITS: XmlLimits = { maxChars: 8 * MIB, maxElements: 100_000 };
/** An RSS or Atom feed: a hundred entries with their full text fit in a few MB. */
export const FEED_LIMITS: XmlLimits = { maxChars: 4 * MIB, maxElements: 50_000 };
/** EDGAR's Atom feed of 100 filings and a Form D are tens of KB. */
export const SEC_XML_LIMITS: XmlLimits = { maxChars: 2 * MIB, maxElements: 50_000 };
/** An EDGAR daily form index lists a day's filings of every form: about 1 MB. */
export const SEC_INDEX_LIMITS = { maxChars: 8 * MIB, maxLineChars: 1000 } as const;
/** API answers read as JSON: TED's pages of 250 notices, GDELT's 250 articles, Companies House, PDL. */
export const API_JSON_LIMITS: JsonLimits = { maxChars: 8 * MIB, maxDepth: 64, maxContainers: 250_000 };

const mib = (chars: number) => `${Math.round((chars / MIB) * 10) / 10} MB`;

/** A document longer than `maxChars` is a problem naming both sizes. */
export function sizeProblem(text: string, maxChars: number): string | null {
  return text.length > maxChars ? `the document is larger than ${mib(maxChars)} (${mib(text.length)}): not read` : null;
}

/**
 * What would make JSON.parse of `text` costly, found in one pass that allocates nothing: its
 * size, its depth, its number of arrays and objects. Strings are skipped with their escapes;
 * whether it is valid JSON is left to JSON.parse.
 */
export function jsonShapeProblem(text: string, limits: JsonLimits): string | null {
  const size = sizeProblem(text, limits.maxChars);
  if (size) return size;
  let depth = 0;
  let containers = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limits.maxDepth) return `the document nests JSON more than ${limits.maxDepth} deep: not read`;
      if (++containers > limits.maxContainers)
        return `the document has more than ${limits.maxContainers.toLocaleString('en-US')} JSON arrays and objects: not read`;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth = Math.max(0, depth - 1);
    }
  }
  return null;
}

/** `text` as JSON once its shape is within `limits`. */
export function readJson(text: string, limits: JsonLimits): { value: unknown } | { problem: string } {
  const problem = jsonShapeProblem(text, limits);
  if (problem) return { problem };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { problem: `not JSON: ${(err as Error).message}` };
  }
}

/**
 * The size and element count of an XML document, counted without parsing: each `<` that opens
 * an element, skipping CDATA sections (a feed's HTML lives there), comments and declarations.
 * Depth is fast-xml-parser's own `maxNestedTags`.
 */
export function xmlShapeProblem(text: string, limits: XmlLimits): string | null {
  const size = sizeProblem(text, limits.maxChars);
  if (size) return size;
  let elements = 0;
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    if (text.startsWith('<![CDATA[', at)) {
      const end = text.indexOf(']]>', at);
      if (end < 0) break;
      at = end;
    } else if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at);
      if (end < 0) break;
      at = end;
    } else if (opensElement(text.charCodeAt(at + 1)) && ++elements > limits.maxElements) {
      return `the document has more than ${limits.maxElements.toLocaleString('en-US')} XML elements: not read`;
    }
  }
  return null;
}

/** A name's first character: a letter, `_`, `:` or anything beyond ASCII. */
function opensElement(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a || c > 0x7f;
}
