import { createHash } from 'node:crypto';
import { coreNameOf } from '../../catalogue/identifiers';

/** Query parameters that only say where a reader came from: the same article without them. */
const TRACKING =
  /^(?:utm_[a-z_]+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|igshid|ref|ref_src|cmpid|ocid|__twitter_impression|guccounter|rss)$/i;

/**
 * One key per article however it was linked: scheme, `www.`, fragment, tracking parameters,
 * parameter order and a trailing slash do not count. The same article reached by a company's
 * feed and by GDELT has one key, so it is checked and ingested once.
 */
export function articleUrlKey(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
  const port = parsed.port && parsed.port !== '80' && parsed.port !== '443' ? `:${parsed.port}` : '';
  const params = [...parsed.searchParams.entries()]
    .filter(([name]) => !TRACKING.test(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const path = parsed.pathname.length > 1 ? parsed.pathname.replace(/\/+$/, '') : '';
  return `${host}${port}${path}${query}`;
}

/** The event id of an article about a company: stable, and distinct per company (an acquisition names two). */
export function newsEventId(companyId: string, urlKey: string): string {
  return `news:${createHash('sha256').update(`${companyId}\n${urlKey}`).digest('hex')}`;
}

/**
 * Whether a text is about the company: its name (without legal form) as whole words, case
 * aside, or its domain. "Acme" names Acme; "Acmeville" does not.
 */
export function namesCompany(text: string, company: { name: string; domain: string | null }): boolean {
  const core = coreNameOf(company.name);
  const words = core
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+');
  if (new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, 'iu').test(text)) return true;
  const domain = company.domain?.trim().toLowerCase();
  return !!domain && text.toLowerCase().includes(domain);
}
