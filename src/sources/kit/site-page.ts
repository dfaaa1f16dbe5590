import { Parser } from 'htmlparser2';
import { HTML_PAGE_LIMITS } from './document-limits';

/** An anchor of a page: its absolute URL and the words it shows. */
export interface PageLink {
  url: string;
  text: string;
}

/** What a company's web page says and references, every URL made absolute against the page. */
export interface SitePage {
  title: string;
  metaDescription: string;
  /** og:description, else twitter:description: the text a company writes to describe itself when shared. */
  shareDescription: string;
  /** `<meta name="generator">` (WordPress, Webflow, ...). */
  generator: string;
  anchors: PageLink[];
  /** `<script src>`. */
  scriptUrls: string[];
  /** `<link href>` other than feeds (stylesheets, preconnects), `<iframe src>` and `<form action>`. */
  resourceUrls: string[];
  /** `<link rel="alternate">` RSS and Atom feeds. */
  feedUrls: string[];
  /** The text of inline scripts, cut at {@link MAX_INLINE_SCRIPT}: globals and embed snippets live there. */
  inlineScript: string;
}

/** Inline script text kept per page: snippets sit in the head, a bundled app's megabytes say nothing more. */
const MAX_INLINE_SCRIPT = 500_000;
const FEED_TYPES: ReadonlySet<string> = new Set(['application/rss+xml', 'application/atom+xml']);

/** Thrown from the parser's callbacks to stop it: a page past {@link HTML_PAGE_LIMITS} is not read further. */
export class PageTooDeep extends Error {
  constructor() {
    super(`the page nests elements more than ${HTML_PAGE_LIMITS.maxDepth} deep: not read`);
  }
}

/** Feeds `html` to a parser whose callbacks throw {@link PageTooDeep} past the limit: its problem, or none. */
export function parseWithinDepth(parser: { write(html: string): void; end(): void }, html: string): string | undefined {
  try {
    parser.write(html);
    parser.end();
    return undefined;
  } catch (err) {
    if (err instanceof PageTooDeep) return err.message;
    throw err;
  }
}

/**
 * Reads an HTML page without a browser (htmlparser2, lenient as browsers are). A body with no
 * tag at all, or with NUL bytes, is not an HTML page: that is the answer's problem. Only the
 * page's first {@link HTML_PAGE_LIMITS}.readChars are read, and each list keeps its first
 * `maxListItems`; a page nesting deeper than `maxDepth` is a problem.
 */
export function readSitePage(whole: string, pageUrl: string): SitePage | { problem: string } {
  const html = whole.slice(0, HTML_PAGE_LIMITS.readChars);
  if (html.includes('\u0000') || !/<[a-z!]/i.test(html)) return { problem: 'the answer is not an HTML page' };
  const page: SitePage = {
    title: '',
    metaDescription: '',
    shareDescription: '',
    generator: '',
    anchors: [],
    scriptUrls: [],
    resourceUrls: [],
    feedUrls: [],
    inlineScript: '',
  };
  let base = pageUrl;
  const absolute = (href: string | undefined) => {
    if (!href) return null;
    try {
      const url = new URL(href.trim(), base);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
    } catch {
      return null;
    }
  };
  let inTitle = false;
  let titleText = '';
  let inInlineScript = false;
  let anchor: PageLink | null = null;
  let twitterDescription = '';
  let depth = 0;
  const add = (list: string[], url: string) => {
    if (list.length < HTML_PAGE_LIMITS.maxListItems) list.push(url);
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (++depth > HTML_PAGE_LIMITS.maxDepth) throw new PageTooDeep();
        switch (name) {
          case 'base': {
            const href = absolute(attrs.href);
            if (href) base = href;
            break;
          }
          case 'title':
            if (!page.title) inTitle = true;
            break;
          case 'meta': {
            const key = (attrs.name ?? attrs.property ?? '').trim().toLowerCase();
            const content = clean(attrs.content ?? '');
            if (key === 'description' && !page.metaDescription) page.metaDescription = content;
            else if (key === 'og:description' && !page.shareDescription) page.shareDescription = content;
            else if (key === 'twitter:description' && !twitterDescription) twitterDescription = content;
            else if (key === 'generator' && !page.generator) page.generator = content;
            break;
          }
          case 'a': {
            const url = absolute(attrs.href);
            anchor = url ? { url, text: '' } : null;
            break;
          }
          case 'script': {
            const url = absolute(attrs.src);
            if (url) add(page.scriptUrls, url);
            else inInlineScript = !attrs.type || /javascript|module/i.test(attrs.type) || /json/i.test(attrs.type);
            break;
          }
          case 'link': {
            const url = absolute(attrs.href);
            if (!url) break;
            const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
            const type = (attrs.type ?? '').trim().toLowerCase();
            if (rel.includes('alternate') && FEED_TYPES.has(type)) add(page.feedUrls, url);
            else add(page.resourceUrls, url);
            break;
          }
          case 'iframe': {
            const url = absolute(attrs.src);
            if (url) add(page.resourceUrls, url);
            break;
          }
          case 'form': {
            const url = absolute(attrs.action);
            if (url) add(page.resourceUrls, url);
            break;
          }
        }
      },
      ontext(text) {
        if (inTitle) titleText += text;
        if (anchor) anchor.text += text;
        if (inInlineScript && page.inlineScript.length < MAX_INLINE_SCRIPT) page.inlineScript += text;
      },
      onclosetag(name) {
        depth--;
        if (name === 'title' && inTitle) {
          inTitle = false;
          page.title = clean(titleText);
        } else if (name === 'a' && anchor) {
          if (page.anchors.length < HTML_PAGE_LIMITS.maxListItems)
            page.anchors.push({ url: anchor.url, text: clean(anchor.text) });
          anchor = null;
        } else if (name === 'script') {
          if (inInlineScript) page.inlineScript += '\n';
          inInlineScript = false;
        }
      },
    },
    { decodeEntities: true },
  );
  const problem = parseWithinDepth(parser, html);
  if (problem) return { problem };
  page.inlineScript = page.inlineScript.slice(0, MAX_INLINE_SCRIPT);
  if (!page.shareDescription) page.shareDescription = twitterDescription;
  page.feedUrls = [...new Set(page.feedUrls)];
  return page;
}

/** Blank runs shrink to one space: titles and descriptions are one line. */
function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
