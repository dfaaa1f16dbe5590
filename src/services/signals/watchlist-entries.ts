import { parse as parseDomain } from 'tldts';
import type { CompanyEntry } from './config';

export interface WatchlistEntry {
  kind: 'company' | 'person';
  name: string | null;
  domain: string | null;
  linkedinUrl: string | null;
  nameKey: string | null;
  /** The strongest identifier: two entries with the same identity are the same company. */
  identity: string;
}

export const nameKeyOf = (name: string) => name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

const PROFESSIONAL_NETWORK = /^(?:[a-z]{2,3}\.)?linkedin\.com$/;

/**
 * A professional-network URL in canonical form: company pages and personal profiles are
 * usable; anything else on that network (jobs, posts, schools) is not.
 */
export function canonicalNetworkUrl(raw: string): { kind: 'company' | 'person'; url: string } | 'unusable' | undefined {
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  if (!PROFESSIONAL_NETWORK.test(host)) return undefined;
  const match = /^\/(company|in)\/([^/?#]+)/i.exec(url.pathname);
  if (!match) return 'unusable';
  const slug = decodeURIComponent(match[2]).toLowerCase();
  const section = match[1].toLowerCase();
  return {
    kind: section === 'in' ? 'person' : 'company',
    url: `https://www.linkedin.com/${section}/${encodeURIComponent(slug)}`,
  };
}

/**
 * The registrable domain (public-suffix aware) of a domain or website text, if it is one.
 * Suffixes of the list's private section count too: a store at `acme.myshopify.com` is the
 * company `acme.myshopify.com`, not the hosting platform `myshopify.com`.
 */
export function registrableDomain(raw: string): string | undefined {
  const text = raw.trim().toLowerCase();
  if (!text || /\s/.test(text)) return undefined;
  const parsed = parseDomain(text, { allowPrivateDomains: true });
  if (parsed.domain) return parsed.domain;
  // The platform's own domain (`myshopify.com`) is a private suffix itself: the platform's company.
  const icann = parseDomain(text);
  return icann.domain && icann.isIcann ? icann.domain : undefined;
}

/**
 * Turns one uploaded entry (a name, a domain, a URL, or an object of those) into a watched
 * entry, or `undefined` when it is unusable: a professional-network URL that is neither a
 * company page nor a personal profile, or a row with neither name nor domain.
 */
export function normaliseEntry(entry: CompanyEntry): WatchlistEntry | undefined {
  let name: string | null = null;
  let domain: string | null = null;
  let linkedinUrl: string | null = null;
  let kind: WatchlistEntry['kind'] = 'company';

  if (typeof entry === 'string') {
    const text = entry.trim();
    if (!text) return undefined;
    const network = canonicalNetworkUrl(text);
    if (network === 'unusable') return undefined;
    if (network) {
      linkedinUrl = network.url;
      kind = network.kind;
    } else if (/^https?:\/\//i.test(text) || (!/\s/.test(text) && text.includes('.'))) {
      const host = (() => {
        try {
          return new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`).hostname;
        } catch {
          return '';
        }
      })();
      domain = registrableDomain(host) ?? null;
      if (!domain) name = text;
    } else {
      name = text;
    }
  } else {
    const given = { name: entry.name ?? '', domain: entry.domain ?? '', url: entry.linkedinUrl ?? '' };
    if (given.url.trim()) {
      const network = canonicalNetworkUrl(given.url.trim());
      if (!network || network === 'unusable') return undefined;
      linkedinUrl = network.url;
      kind = network.kind;
    }
    name = given.name.trim() || null;
    domain = given.domain.trim()
      ? (registrableDomain(given.domain.replace(/^https?:\/\//i, '').split('/')[0]) ?? null)
      : null;
    if (!name && !domain) return undefined;
  }
  const nameKey = name ? nameKeyOf(name) : null;
  const identity = linkedinUrl ? `url:${linkedinUrl}` : domain ? `domain:${domain}` : `name:${nameKey}`;
  return { kind, name, domain, linkedinUrl, nameKey, identity };
}
