import { Parser } from 'htmlparser2';
import { HTML_PAGE_LIMITS } from '../kit/document-limits';
import { PageTooDeep, parseWithinDepth } from '../kit/site-page';

/** What an article's web page says, as text. */
export interface ArticlePage {
  /** The `<title>` element. */
  title: string;
  /** `og:title`, else the first `<h1>`. */
  headline: string;
  /** `og:description`, else the meta description. */
  description: string;
  /** The text of each `<p>` outside navigation, header, footer and asides, in order. */
  paragraphs: string[];
  /** Every visible text of the page (scripts, styles and templates left out). */
  text: string;
  /** `article:published_time`, else the first `<time datetime>`, as ISO; null when neither is there. */
  publishedAt: string | null;
}

const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe']);
const CHROME = new Set(['nav', 'header', 'footer', 'aside']);
const BLOCKS = new Set(['p', 'div', 'li', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'section', 'article']);
/** Enough for the name check and the lead paragraphs of any article. */
const MAX_TEXT = 200_000;

/**
 * Reads an HTML page once, leniently (htmlparser2 accepts what browsers accept): its first
 * {@link HTML_PAGE_LIMITS}.readChars; a page nesting elements deeper than its `maxDepth` is a problem.
 */
export function readArticlePage(whole: string): ArticlePage | { problem: string } {
  const html = whole.slice(0, HTML_PAGE_LIMITS.readChars);
  const page: ArticlePage = { title: '', headline: '', description: '', paragraphs: [], text: '', publishedAt: null };
  const meta: Record<string, string> = {};
  const text: string[] = [];
  let hidden = 0;
  let chrome = 0;
  let inTitle = false;
  let h1: string[] | null = null;
  let firstH1 = '';
  let paragraph: string[] | null = null;
  let firstTime: string | null = null;
  let size = 0;
  let depth = 0;

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (++depth > HTML_PAGE_LIMITS.maxDepth) throw new PageTooDeep();
        if (name === 'title') inTitle = true;
        if (name === 'meta') {
          const key = (attributes.property ?? attributes.name ?? '').toLowerCase();
          if (key && attributes.content !== undefined && !(key in meta)) meta[key] = attributes.content;
        }
        if (HIDDEN.has(name)) hidden++;
        if (CHROME.has(name)) chrome++;
        if (name === 'h1' && !firstH1) h1 = [];
        if (name === 'p' && hidden === 0 && chrome === 0) paragraph = [];
        if (name === 'time' && firstTime === null && attributes.datetime) firstTime = attributes.datetime;
        if (BLOCKS.has(name)) text.push('\n');
      },
      ontext(data) {
        if (inTitle) {
          page.title += data;
          return;
        }
        if (hidden > 0) return;
        if (size < MAX_TEXT) {
          text.push(data);
          size += data.length;
        }
        h1?.push(data);
        paragraph?.push(data);
      },
      onclosetag(name) {
        depth--;
        if (name === 'title') inTitle = false;
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        if (CHROME.has(name)) chrome = Math.max(0, chrome - 1);
        if (name === 'h1' && h1) {
          firstH1 = squeeze(h1.join(''));
          h1 = null;
        }
        if (name === 'p' && paragraph) {
          const line = squeeze(paragraph.join(''));
          if (line) page.paragraphs.push(line);
          paragraph = null;
        }
        if (BLOCKS.has(name)) text.push('\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  const problem = parseWithinDepth(parser, html);
  if (problem) return { problem };

  page.title = squeeze(page.title);
  page.headline = squeeze(meta['og:title'] ?? '') || firstH1;
  page.description = squeeze(meta['og:description'] ?? meta.description ?? '');
  page.text = text
    .join('')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
  page.publishedAt = isoOf(meta['article:published_time'] ?? '') ?? isoOf(firstTime ?? '');
  return page;
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

function isoOf(text: string): string | null {
  if (!text) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}
