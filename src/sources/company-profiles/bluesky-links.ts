import { isBlueskyDid, isBlueskyHandle } from '../../catalogue/identifiers';
import type { SitePage } from '../kit/site-page';

/** Profile links read on one page at most: a footer names a handful, a link farm is not read on. */
const MAX_ACCOUNTS = 10;

/**
 * The Bluesky account a URL links: `https://bsky.app/profile/<handle or DID>` and nothing else
 * (a post, a feed or a list of the account is another's as often as the company's own), the
 * handle lower case without `@`, checked against atproto's handle and DID syntax.
 */
export function blueskyAccountOf(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.hostname.toLowerCase() !== 'bsky.app' || url.username || url.password || url.port) return null;
  const match = /^\/profile\/([^/]+)\/?$/.exec(url.pathname);
  if (!match) return null;
  let account: string;
  try {
    account = decodeURIComponent(match[1]!).trim();
  } catch {
    return null;
  }
  if (account.startsWith('did:')) return isBlueskyDid(account) ? account : null;
  const handle = account.replace(/^@/, '').toLowerCase();
  return isBlueskyHandle(handle) ? handle : null;
}

/**
 * The Bluesky accounts a page's anchors link, each once: first those whose handle is the
 * company's domain or under it (Bluesky verified that: the company's own), then the rest in the
 * page's order (a footer's social links name the company's account first).
 */
export function blueskyAccountsOf(page: SitePage, domain: string): string[] {
  const found = new Set<string>();
  for (const anchor of page.anchors) {
    const account = blueskyAccountOf(anchor.url);
    if (account) found.add(account);
    if (found.size >= MAX_ACCOUNTS) break;
  }
  const own = (account: string) => account === domain || account.endsWith(`.${domain}`);
  return [...[...found].filter(own), ...[...found].filter((account) => !own(account))];
}
