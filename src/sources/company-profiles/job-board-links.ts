import type { SitePage } from '../kit/site-page';

/** A company's board on an applicant-tracking system, as its `ats` is stored and its token. */
export interface BoardLink {
  ats: string;
  token: string;
}

/** A board token is the path segment or subdomain of the hosted careers page. */
const TOKEN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
/** Subdomains of the vendors' own sites, never a company's board. */
const VENDOR_SUBDOMAINS: ReadonlySet<string> = new Set([
  ...['www', 'app', 'api', 'apply', 'jobs', 'careers', 'help', 'support'],
  ...['blog', 'docs', 'status', 'resources', 'developers'],
]);
/** First path segments of the hosted boards that are pages of the vendor, not a company's board. */
const VENDOR_PATHS: ReadonlySet<string> = new Set([
  ...['embed', 'api', 'j', 'v0', 'v1', 'static', 'assets', 'oneclick-ui'],
  ...['favicon.ico', 'robots.txt', 'sitemap.xml'],
]);

const firstSegment = (url: URL) => decodeURIComponent(url.pathname.split('/').filter(Boolean)[0] ?? '');
const segment = (url: URL, i: number) => decodeURIComponent(url.pathname.split('/').filter(Boolean)[i] ?? '');
const subdomainOf = (host: string, suffix: string) =>
  host.endsWith(suffix) ? host.slice(0, -suffix.length).split('.').pop()! : '';

/**
 * The board a URL points at, by the hosted careers page and embed shapes each vendor documents:
 * Greenhouse `boards.greenhouse.io/<token>`, `job-boards(.eu).greenhouse.io/<token>`, the embed
 * `boards.greenhouse.io/embed/job_board(/js)?for=<token>`; Lever `jobs(.eu).lever.co/<site>`;
 * Ashby `jobs.ashbyhq.com/<name>`; Workable `apply.workable.com/<account>`; SmartRecruiters
 * `jobs|careers.smartrecruiters.com/<company>`; Recruitee `<company>.recruitee.com`; Personio
 * `<company>.jobs.personio.de|com`; and each one's public board API.
 */
export function boardLinkOf(raw: string): BoardLink | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  const board = (ats: string, token: string | null | undefined): BoardLink | null =>
    token && TOKEN.test(token) && !VENDOR_PATHS.has(token.toLowerCase()) ? { ats, token } : null;

  if (/^(boards|job-boards)(\.eu)?\.greenhouse\.io$/.test(host)) {
    const path = firstSegment(url);
    if (path === 'embed') return board('greenhouse', url.searchParams.get('for'));
    return board('greenhouse', path);
  }
  if (host === 'boards-api.greenhouse.io' && segment(url, 1) === 'boards') return board('greenhouse', segment(url, 2));
  if (/^jobs(\.eu)?\.lever\.co$/.test(host)) return board('lever', firstSegment(url));
  if (/^api(\.eu)?\.lever\.co$/.test(host) && segment(url, 1) === 'postings') return board('lever', segment(url, 2));
  if (host === 'jobs.ashbyhq.com') return board('ashby', firstSegment(url));
  if (host === 'api.ashbyhq.com' && segment(url, 1) === 'job-board') return board('ashby', segment(url, 2));
  if (host === 'apply.workable.com') {
    if (firstSegment(url) === 'api') return board('workable', segment(url, 4));
    return board('workable', firstSegment(url));
  }
  if (host.endsWith('.workable.com')) {
    const account = subdomainOf(host, '.workable.com');
    return VENDOR_SUBDOMAINS.has(account) ? null : board('workable', account);
  }
  if (host === 'jobs.smartrecruiters.com' || host === 'careers.smartrecruiters.com')
    return board('smartrecruiters', firstSegment(url));
  if (host === 'api.smartrecruiters.com' && segment(url, 1) === 'companies')
    return board('smartrecruiters', segment(url, 2));
  if (host.endsWith('.recruitee.com')) {
    const company = subdomainOf(host, '.recruitee.com');
    return VENDOR_SUBDOMAINS.has(company) ? null : board('recruitee', company);
  }
  const personio = /^([a-z0-9-]+)\.jobs\.personio\.(de|com)$/.exec(host);
  if (personio) return board('personio', personio[1]);
  return null;
}

/** Absolute http(s) URLs written out in script text: embed snippets name the board there. */
const URL_IN_TEXT = /https?:\/\/[^\s"'`<>()\\]+/g;
/** `Grnhse.Settings` and the embed snippet also name the Greenhouse board as `for=`. */
const GREENHOUSE_FOR = /greenhouse\.io\/embed\/job_board(?:\/js)?\?(?:[^"'\s]*&)?for=([A-Za-z0-9._-]+)/g;

/** Every board a page links, embeds or names in its scripts, in the page's order, each once. */
export function boardsOf(page: SitePage): BoardLink[] {
  const urls = [
    ...page.anchors.map((anchor) => anchor.url),
    ...page.resourceUrls,
    ...page.scriptUrls,
    ...(page.inlineScript.match(URL_IN_TEXT) ?? []),
  ];
  const found = urls.map(boardLinkOf).filter((link): link is BoardLink => link !== null);
  for (const match of page.inlineScript.matchAll(GREENHOUSE_FOR)) found.push({ ats: 'greenhouse', token: match[1]! });
  const seen = new Set<string>();
  return found.filter((link) => {
    const key = `${link.ats}:${link.token}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
