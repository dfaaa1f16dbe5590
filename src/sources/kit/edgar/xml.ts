import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SEC_XML_LIMITS, xmlShapeProblem } from '../document-limits';

/** Tags EDGAR may repeat: always read as lists, so one occurrence and several look alike. */
const REPEATED = new Set([
  'entry',
  'relatedPersonInfo',
  'relationship',
  'item',
  'signature',
  'issuer',
  'link',
  'reportingOwner',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Values stay text: a CIK "0001544190" must keep its zeros, an amount may be "Indefinite".
  parseTagValue: false,
  parseAttributeValue: false,
  removeNSPrefix: true,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
});

/** An XML document as nested objects, or why it is not well-formed (or past {@link SEC_XML_LIMITS}). */
export function readXml(text: string): { root: Record<string, unknown> } | { problem: string } {
  const tooMuch = xmlShapeProblem(text, SEC_XML_LIMITS);
  if (tooMuch) return { problem: tooMuch };
  const body = text.trimStart();
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    return { problem: `not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})` };
  }
  const root: unknown = parser.parse(body);
  return root && typeof root === 'object'
    ? { root: root as Record<string, unknown> }
    : { problem: 'an empty document' };
}

/** The element at `path` below `node`, if it is one. */
export function child(node: unknown, ...path: string[]): Record<string, unknown> | undefined {
  let at: unknown = node;
  for (const name of path) {
    if (!at || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[name];
  }
  return at && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>) : undefined;
}

/** The text at `path` below `node`, trimmed; null when absent or empty. */
export function textAt(node: unknown, ...path: string[]): string | null {
  let at: unknown = node;
  for (const name of path) {
    if (!at || typeof at !== 'object' || Array.isArray(at)) return null;
    at = (at as Record<string, unknown>)[name];
  }
  if (at && typeof at === 'object' && !Array.isArray(at)) at = (at as Record<string, unknown>)['#text'];
  return typeof at === 'string' && at.trim() ? at.trim() : null;
}

/** The list at `path` (a repeated tag), empty when absent. */
export function listAt(node: unknown, ...path: string[]): unknown[] {
  const parent = child(node, ...path.slice(0, -1));
  const value = parent?.[path[path.length - 1]!];
  return Array.isArray(value) ? value : [];
}
