import { canonicalNetworkUrl, nameKeyOf, registrableDomain } from '../../catalogue/identifiers';
import type { CompanyEntry } from '../../signal-types/kit/config';

export interface WatchlistEntry {
  kind: 'company' | 'person';
  name: string | null;
  domain: string | null;
  linkedinUrl: string | null;
  nameKey: string | null;
  /** The strongest identifier: two entries with the same identity are the same company. */
  identity: string;
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
