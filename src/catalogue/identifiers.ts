/**
 * How a company or person is recognised whatever the source wrote: a name key, a canonical
 * professional-network URL, a registrable domain. Watchlist entries, ingested records and
 * enrichment lookups all key on these, so a match means the same thing everywhere.
 */
import { parse as parseDomain } from 'tldts';

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

/** Legal forms that articles leave out of a company's name ("Acme" for "Acme Robotics, Inc."). */
const LEGAL_FORM =
  /[\s,]+(?:inc|incorporated|llc|l\.l\.c|ltd|limited|corp|corporation|co|company|gmbh|ag|sa|s\.a|sas|sarl|bv|b\.v|nv|n\.v|plc|pty|oy|ab|as|a\/s|srl|spa|s\.p\.a|kk|group|holdings?)\.?$/i;

/** The name articles use: the stored name without its legal form, unless that leaves under 2 characters. */
export function coreNameOf(name: string): string {
  let core = name.trim();
  for (let i = 0; i < 2 && LEGAL_FORM.test(core); i++) core = core.replace(LEGAL_FORM, '').trim();
  return core.replace(/[\s,]+$/, '').length >= 2 ? core.replace(/[\s,]+$/, '') : name.trim();
}

/**
 * {@link coreNameOf} in SQL, lower-cased, over a name column: the same legal forms (the
 * pattern is valid in PostgreSQL's regular expressions too), so the news source and the
 * watchlist's evaluation recognise a company by the same name.
 */
export function coreNameSql(column: string): string {
  const strip = (text: string) => `regexp_replace(${text}, '${LEGAL_FORM.source}', '', 'i')`;
  const core = `rtrim(${strip(strip(`btrim(lower(${column}))`))}, ' ,')`;
  return `(CASE WHEN length(${core}) >= 2 THEN ${core} ELSE btrim(lower(${column})) END)`;
}

/** Top-level domains atproto's handle syntax refuses (https://atproto.com/specs/handle): reserved or not public. */
const DISALLOWED_HANDLE_TLDS: ReadonlySet<string> = new Set([
  ...['alt', 'arpa', 'example', 'internal', 'invalid', 'local', 'localhost', 'onion', 'test'],
]);
const HANDLE_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A Bluesky handle by atproto's syntax, lower case without `@`: ASCII labels of 1 to 63
 * letters, digits and inner hyphens, at least two, at most 253 characters, the last not
 * starting with a digit and not a reserved TLD (`.test`, `.local`, `.invalid`, ...).
 */
export function isBlueskyHandle(handle: string): boolean {
  if (handle.length > 253) return false;
  const labels = handle.split('.');
  const tld = labels[labels.length - 1]!;
  return (
    labels.length >= 2 &&
    labels.every((label) => HANDLE_LABEL.test(label)) &&
    /^[a-z]/.test(tld) &&
    !DISALLOWED_HANDLE_TLDS.has(tld)
  );
}

/** A DID Bluesky accounts have: `did:plc:` and its 24 base32 characters, or `did:web:` and a host name. */
export function isBlueskyDid(did: string): boolean {
  if (/^did:plc:[a-z2-7]{24}$/.test(did)) return true;
  const web = /^did:web:(.+)$/.exec(did);
  return web !== null && isBlueskyHandle(web[1]!);
}
