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
