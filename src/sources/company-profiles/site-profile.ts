import { registrableDomain } from '../../catalogue/identifiers';
import { blueskyAccountsOf } from './bluesky-links';
import { boardLinkOf, boardsOf, type BoardLink } from './job-board-links';
import type { SitePage } from '../kit/site-page';
import { technologiesOf } from './tech-fingerprints';

/** What one page of a company's site showed: stored per page, so a 304 reuses it. */
export interface PageFacts {
  title: string;
  metaDescription: string;
  /** og:description, else twitter:description, else the meta description. */
  description: string;
  technologies: string[];
  feeds: string[];
  boards: BoardLink[];
  /** `bsky.app/profile/...` links, the company's own first; absent in facts stored before they were read. */
  blueskyAccounts?: string[];
  careersUrl: string | null;
}

/** A company's profile from its homepage and careers page together. */
export interface SiteProfile {
  homepageTitle: string | null;
  metaDescription: string | null;
  description: string | null;
  technologies: string[];
  feeds: string[];
  board: BoardLink | null;
  /** The Bluesky handle or DID the homepage links (the bluesky source reads it), if any. */
  blueskyAccount: string | null;
}

/** Longest values the company columns take (the ingest's company record limits). */
const MAX_TITLE = 1000;
const MAX_META = 5000;
const MAX_DESCRIPTION = 20_000;

/** Words of a careers link, in its path or its text (English, German, French, Spanish, Italian, Dutch). */
const CAREERS_PATH =
  /(^|[/_-])(careers?|jobs|join-?us|work-?with-?us|vacanc(y|ies)|open-?(positions|roles)|karriere|stellen(angebote)?|carrieres?|emplois?|empleos?|lavora-con-noi|vacatures|werken-bij)([/_.-]|$)/i;
const CAREERS_HOST = /^(careers?|jobs|karriere|join)\./i;
const CAREERS_TEXT =
  /\b(careers?|jobs|join (us|the team|our team)|work with us|we'?re hiring|open (positions|roles)|vacanc(y|ies)|karriere|stellenangebote|carrières?|emplois?|empleos?|lavora con noi|vacatures|werken bij)\b/i;

export function factsOf(page: SitePage, pageUrl: string, domain: string): PageFacts {
  const boards = boardsOf(page);
  return {
    title: page.title,
    metaDescription: page.metaDescription,
    description: page.shareDescription || page.metaDescription,
    technologies: technologiesOf(
      page,
      boards.map((board) => board.ats),
    ),
    feeds: page.feedUrls,
    boards,
    blueskyAccounts: blueskyAccountsOf(page, domain),
    careersUrl: careersLinkOf(page, pageUrl, domain),
  };
}

/**
 * The page's link to the company's careers page on its own site (a subdomain counts): a link
 * whose path says so first, else one whose words do. Links to a job board are boards, not
 * careers pages, and are found as such.
 */
export function careersLinkOf(page: SitePage, pageUrl: string, domain: string): string | null {
  const here = withoutHash(pageUrl);
  const candidates = page.anchors.filter((anchor) => {
    const url = new URL(anchor.url);
    return (
      registrableDomain(url.hostname) === domain && withoutHash(anchor.url) !== here && boardLinkOf(anchor.url) === null
    );
  });
  const byPath = candidates.find((anchor) => {
    const url = new URL(anchor.url);
    return CAREERS_PATH.test(url.pathname) || CAREERS_HOST.test(url.hostname);
  });
  const byText = candidates.find((anchor) => CAREERS_TEXT.test(anchor.text));
  const chosen = byPath ?? byText;
  return chosen ? withoutHash(chosen.url) : null;
}

/**
 * The homepage says who the company is; the careers page adds its board, its technologies
 * and feeds. A board a platform here reads is preferred, the careers page's before the homepage's.
 */
export function profileOf(home: PageFacts, careers: PageFacts | null, readable: (ats: string) => boolean): SiteProfile {
  const boards = [...(careers?.boards ?? []), ...home.boards];
  return {
    homepageTitle: home.title.slice(0, MAX_TITLE) || null,
    metaDescription: home.metaDescription.slice(0, MAX_META) || null,
    description: home.description.slice(0, MAX_DESCRIPTION) || null,
    technologies: [...new Set([...home.technologies, ...(careers?.technologies ?? [])])],
    feeds: [...new Set([...home.feeds, ...(careers?.feeds ?? [])])],
    board: boards.find((board) => readable(board.ats)) ?? boards[0] ?? null,
    // The homepage is where a company links its own accounts; a careers page links its recruiters'.
    blueskyAccount: home.blueskyAccounts?.[0] ?? null,
  };
}

function withoutHash(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.toString();
}
