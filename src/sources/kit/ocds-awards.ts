import { API_JSON_LIMITS, readJson } from './document-limits';
import { cleanName, winnerDomainOf, type AwardWinner } from './award-winners';
import type { AwardPage } from './award-feed';
import type { ContractAward } from './public-tenders';

/**
 * OCDS 1.1 release packages (standard.open-contracting.org, release-schema.json), as Find a
 * Tender and Contracts Finder publish them: `{uri, publishedDate, releases: [...], links: {next}}`.
 * A release names its organisations once in `parties[]` (`id`, `name`, `identifier {scheme, id}`,
 * `additionalIdentifiers[]`, `address`, `contactPoint`, `roles[]`) and refers to them by id from
 * `buyer` and `awards[].suppliers[]`. An award's value may be null while its contract's
 * (`contracts[]` by `awardID`) is stated (research-2 §4).
 */

/** How one publisher's releases become awards: the event key's prefix, the notice's page. */
export interface OcdsPublisher {
  keyPrefix: string;
  /** The notice's page on the publisher's site, from the release; null when none can be made. */
  noticeLink(release: { ocid: string; id: string }): string | null;
}

/** One page of a release package: its awards, and the `cursor` of `links.next` (none on the last page). */
export function parseOcdsAwards(text: string, publisher: OcdsPublisher): AwardPage | { problem: string } {
  const read = readJson(text, API_JSON_LIMITS);
  if ('problem' in read) return read;
  const body = read.value;
  if (!isRecord(body) || !Array.isArray(body.releases)) return { problem: 'not an OCDS release package: no releases' };
  const awards: ContractAward[] = [];
  const unreadable: string[] = [];
  for (const [i, raw] of body.releases.entries()) {
    const release = isRecord(raw) ? releaseAwards(raw, publisher) : null;
    if (release) awards.push(...release);
    else unreadable.push(isRecord(raw) && textOf(raw.ocid) ? textOf(raw.ocid)!.slice(0, 80) : `#${i + 1}`);
  }
  const links = isRecord(body.links) ? body.links : {};
  return { awards, next: cursorOf(links.next), unreadable };
}

/** The `cursor` parameter of a `links.next` URL; the rest of that URL is never followed as given. */
function cursorOf(next: unknown): string | null {
  const text = textOf(next);
  if (!text) return null;
  try {
    const cursor = new URL(text, 'https://example.invalid/').searchParams.get('cursor');
    return cursor && cursor.length <= 1000 ? cursor : null;
  } catch {
    return null;
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}/;
const CLOSED_AWARD = new Set(['cancelled', 'unsuccessful', 'pending']);

/** The release's awards still standing, or null when the release cannot be read (no ocid, id or date). */
function releaseAwards(release: Record<string, unknown>, publisher: OcdsPublisher): ContractAward[] | null {
  const ocid = textOf(release.ocid);
  const id = textOf(release.id);
  const releaseDate = textOf(release.date);
  if (!ocid || !id || !releaseDate || !DAY.test(releaseDate)) return null;
  const link = publisher.noticeLink({ ocid, id });
  if (!link) return null;
  const parties = new Map<string, Record<string, unknown>>();
  for (const party of list(release.parties)) {
    const partyId = textOf(party.id);
    if (partyId && !parties.has(partyId)) parties.set(partyId, party);
  }
  const tender = isRecord(release.tender) ? release.tender : {};
  const contracts = list(release.contracts);
  const awards: ContractAward[] = [];
  for (const [i, award] of list(release.awards).entries()) {
    const status = textOf(award.status)?.toLowerCase();
    if (status && CLOSED_AWARD.has(status)) continue;
    const awardId = textOf(award.id) ?? String(i + 1);
    const contract = contracts.find((c) => textOf(c.awardID) === awardId);
    const day = [textOf(award.date), textOf(contract?.dateSigned), releaseDate].find((d) => d && DAY.test(d))!;
    const winners = suppliersOf(award, parties);
    if (!winners.length) continue;
    awards.push({
      key: `${publisher.keyPrefix}:${ocid}:${awardId}`.slice(0, 160),
      title: (textOf(award.title) ?? textOf(tender.title) ?? textOf(release.title) ?? '').slice(0, 2000),
      buyer: buyerOf(release, parties),
      value: valueOf(award.value) ?? valueOf(contract?.value),
      valueLabel: 'value',
      awardedOn: day.slice(0, 10),
      link,
      winners,
    });
  }
  return awards;
}

/** The award's suppliers, each completed by its party: company number, website, country; once each. */
function suppliersOf(award: Record<string, unknown>, parties: Map<string, Record<string, unknown>>): AwardWinner[] {
  const winners: AwardWinner[] = [];
  for (const supplier of list(award.suppliers)) {
    const supplierId = textOf(supplier.id);
    const party = (supplierId && parties.get(supplierId)) || {};
    const identifier = isRecord(party.identifier) ? party.identifier : {};
    const name = cleanName(textOf(supplier.name) ?? textOf(party.name) ?? textOf(identifier.legalName));
    if (!name) continue;
    const companyNumber = companyNumberOf(party, supplierId);
    const contact = isRecord(party.contactPoint) ? party.contactPoint : {};
    const details = isRecord(party.details) ? party.details : {};
    const winner: AwardWinner = {
      name,
      country: companyNumber ? 'GB' : countryOf(party.address),
      companyNumber,
      domain: winnerDomainOf(textOf(contact.url) ?? textOf(details.url)),
    };
    const same = winners.find(
      (w) => (companyNumber && w.companyNumber === companyNumber) || w.name.toLowerCase() === winner.name.toLowerCase(),
    );
    if (!same) winners.push(winner);
  }
  return winners;
}

/**
 * A Companies House number: the party's `identifier` or one of its `additionalIdentifiers`
 * with scheme `GB-COH` (Procurement Act notices give `GB-PPON` first), else an id `GB-COH-…`.
 * Written with spaces or without its leading zeros, it is made the register's 8 characters.
 */
function companyNumberOf(party: Record<string, unknown>, supplierId: string | null): string | null {
  const identifiers = [party.identifier, ...list(party.additionalIdentifiers)].filter(isRecord);
  const found = identifiers.find((i) => textOf(i.scheme)?.toUpperCase() === 'GB-COH');
  const raw = textOf(found?.id) ?? /^GB-COH-(.+)$/i.exec(supplierId ?? textOf(party.id) ?? '')?.[1] ?? null;
  if (!raw) return null;
  const number = raw.replace(/\s+/g, '').toUpperCase();
  if (/^\d{1,8}$/.test(number)) return number.padStart(8, '0');
  return /^[A-Z]{2}\d{6}$/.test(number) ? number : null;
}

/** The buyer: `buyer.name`, else its party's, else the parties in the role `buyer`. */
function buyerOf(release: Record<string, unknown>, parties: Map<string, Record<string, unknown>>): string {
  const buyer = isRecord(release.buyer) ? release.buyer : {};
  const named = cleanName(textOf(buyer.name) ?? textOf(parties.get(textOf(buyer.id) ?? '')?.name));
  if (named) return named;
  const buyers = [...parties.values()]
    .filter((p) => list(p.roles, true).some((role) => role === 'buyer'))
    .map((p) => cleanName(textOf(p.name)))
    .filter((name): name is string => !!name);
  return [...new Set(buyers)].join('; ');
}

function valueOf(value: unknown): { amount: number; currency: string | null } | null {
  if (!isRecord(value)) return null;
  const amount = typeof value.amount === 'string' ? Number(value.amount) : value.amount;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return null;
  const currency = textOf(value.currency)?.toUpperCase();
  return { amount, currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : null };
}

const UK_NAMES = new Set(['united kingdom', 'uk', 'great britain', 'england', 'scotland', 'wales', 'northern ireland']);

/** ISO 3166 alpha-2 from the address: OCDS 1.2's `country`, else a UK `countryName`; else unknown. */
function countryOf(address: unknown): string | null {
  if (!isRecord(address)) return null;
  const code = textOf(address.country)?.toUpperCase();
  if (code && /^[A-Z]{2}$/.test(code)) return code === 'UK' ? 'GB' : code;
  const name = textOf(address.countryName)?.toLowerCase();
  return name && UK_NAMES.has(name) ? 'GB' : null;
}

function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** The records of a list, or (`texts`) its strings; anything else is no list. */
function list(value: unknown): Record<string, unknown>[];
function list(value: unknown, texts: true): string[];
function list(value: unknown, texts?: true): unknown[] {
  if (!Array.isArray(value)) return [];
  return texts ? value.filter((v) => typeof v === 'string') : value.filter(isRecord);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
