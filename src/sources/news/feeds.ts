import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FEED_LIMITS, xmlShapeProblem } from '../kit/document-limits';
import { plainTextOf } from '../kit/plain-text';
import { firstIsoDateOf } from './feed-dates';

/** One entry of a company's feed: where the article is, what the feed says of it. */
export interface FeedEntry {
  url: string;
  title: string;
  summary: string;
  /** ISO timestamp, or null when the entry states no date. */
  publishedAt: string | null;
}

export type FeedDocument = { format: 'rss' | 'atom'; entries: FeedEntry[] } | { problem: string };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
});

/**
 * An RSS 2.0 (also RSS 1.0/RDF) or Atom 1.0 document as its entries, in the order the feed
 * lists them. A document past {@link FEED_LIMITS}, or that is not well-formed XML, or whose root is neither `<rss>`,
 * `<rdf:RDF>` nor `<feed>`, is a problem naming why. Relative links resolve against the feed's URL.
 */
export function parseFeed(xml: string, feedUrl: string): FeedDocument {
  const tooMuch = xmlShapeProblem(xml, FEED_LIMITS);
  if (tooMuch) return { problem: tooMuch };
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { problem: `not well-formed XML: ${valid.err.msg} (line ${valid.err.line})` };
  let document: Record<string, unknown>;
  try {
    document = parser.parse(xml) as Record<string, unknown>;
  } catch (err) {
    return { problem: `not well-formed XML: ${(err as Error).message}` };
  }
  const rss = objectAt(document, 'rss');
  if (rss) {
    const channel = objectAt(rss, 'channel');
    if (!channel) return { problem: 'an <rss> document without a <channel>' };
    return { format: 'rss', entries: listAt(channel, 'item').flatMap((item) => rssEntry(item, feedUrl)) };
  }
  const rdf = objectAt(document, 'rdf:RDF');
  if (rdf) return { format: 'rss', entries: listAt(rdf, 'item').flatMap((item) => rssEntry(item, feedUrl)) };
  const feed = objectAt(document, 'feed');
  if (feed) return { format: 'atom', entries: listAt(feed, 'entry').flatMap((entry) => atomEntry(entry, feedUrl)) };
  const root = Object.keys(document).find((key) => !key.startsWith('?')) ?? 'nothing';
  return { problem: `not an RSS or Atom feed (its root is <${root}>)` };
}

function rssEntry(item: Record<string, unknown>, feedUrl: string): FeedEntry[] {
  const guid = item.guid;
  const guidIsLink =
    guid !== undefined && (typeof guid !== 'object' || (guid as Record<string, unknown>)['@_isPermaLink'] !== 'false');
  const link = textOf(listAt(item, 'link')[0] ?? item.link) || (guidIsLink ? textOf(guid) : '');
  // FeedBurner's <link> is its own redirect; the article's own address is its origLink.
  const url = absolute(textOf(item['feedburner:origLink']), feedUrl) ?? absolute(link, feedUrl);
  if (!url) return [];
  return [
    {
      url,
      title: plainTextOf(textOf(item.title)),
      summary: plainTextOf(textOf(item.description) || textOf(item['content:encoded'])),
      publishedAt: firstIsoDateOf(textOf(item.pubDate), textOf(item['dc:date']), textOf(item['dcterms:issued'])),
    },
  ];
}

function atomEntry(entry: Record<string, unknown>, feedUrl: string): FeedEntry[] {
  const links = listAt(entry, 'link').filter((link) => typeof link['@_href'] === 'string' && link['@_href'].trim());
  // The entry's page is its rel="alternate" link (rel's default), an HTML one before the others;
  // `self`, `edit`, `replies` and `enclosure` links are not it. FeedBurner's origLink beats them all.
  const alternates = links.filter((link) => (link['@_rel'] ?? 'alternate') === 'alternate');
  const alternate =
    alternates.find((link) => /html/i.test(String(link['@_type'] ?? 'text/html'))) ?? alternates[0] ?? links[0];
  const url =
    absolute(textOf(entry['feedburner:origLink']), feedUrl) ??
    absolute(typeof alternate?.['@_href'] === 'string' ? alternate['@_href'] : '', feedUrl);
  if (!url) return [];
  return [
    {
      url,
      title: plainTextOf(textOf(entry.title)),
      summary: plainTextOf(textOf(entry.summary) || textOf(entry.content)),
      publishedAt: firstIsoDateOf(
        textOf(entry.published),
        textOf(entry['dc:date']),
        textOf(entry.issued),
        textOf(entry.updated),
        textOf(entry.modified),
      ),
    },
  ];
}

/** A text element's text: a plain value, or the text of an element with attributes (Atom's `type="html"`). */
function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  if (typeof node === 'number') return String(node);
  if (node && typeof node === 'object' && '#text' in node) return textOf((node as Record<string, unknown>)['#text']);
  return '';
}

function objectAt(node: Record<string, unknown>, key: string): Record<string, unknown> | null {
  const value = node[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function listAt(node: Record<string, unknown>, key: string): Record<string, unknown>[] {
  const value = node[key];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((item) => (item && typeof item === 'object' ? (item as Record<string, unknown>) : { '#text': item }));
}

function absolute(link: string, base: string): string | null {
  if (!link.trim()) return null;
  try {
    const url = new URL(link.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}
