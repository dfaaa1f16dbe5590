/**
 * Wake on arrival (docs/decisions/wake-on-arrival.md): a signal's workflow is told when a row
 * that may concern it is written, instead of waiting for its next timed evaluation. Both sides
 * of the match come from here: a signal type says which keys may concern a signal of a config
 * (`SignalType.wakeKeys`, built with {@link signalWakeKeys}), and the announcer turns each row a
 * writer inserted, changed or deleted into keys with {@link arrivedRowKeys}. A wake key may
 * wake a signal that then finds nothing, never leave one asleep that a full read would give a lead.
 *
 * A row comes in two grains. Coarse (`kind:<kind>`): only what it is, for rows changed or
 * deleted, whose old values could matter. Faceted (`<kind>@<facet>:<value>`, each pair of those,
 * and `<kind>@any`): an inserted row, whose company and person the announcer reads, so a signal
 * whose filters name the countries, industries, sizes or personas it wants wakes only for rows
 * that have them. A signal stores the coarse key of each kind it reads and, for the faceted rows,
 * the values of its narrowest filter or pair of filters (or `@any`). Keys overlap, or they do not: one GIN lookup.
 */

/** One key: `kind:<kind>`, `<kind>@<facet>:<value>` (or two joined by `&`), `<kind>@any`, `<kind>@watched` or `company`. */
export type WakeKey = string;

/** The pseudo-kind of a person row: persona targeting names a person, job changes read theirs. */
export const PERSON_KIND = 'person';

/** Any row of this kind (an event type, or `person`), whatever its values: the coarse grain. */
export const kindKey = (kind: string): WakeKey => `kind:${kind}`;
/** A company's columns a plan reads changed (its events may now pass filters they failed). */
export const COMPANY_KEY: WakeKey = 'company';
/** A faceted row of this kind whose company or person some watchlist's entries name (resolved by the announcer). */
export const watchedKey = (kind: string): WakeKey => `${kind}@watched`;

/**
 * What a filter can be keyed on, with the values a row holds: the company's headquarters country
 * (`hq`), industry and size band; the person's persona and country (`personCountry`).
 */
export type Facet = 'hq' | 'industry' | 'size' | 'persona' | 'personCountry';
export type Facets = Partial<Record<Facet, readonly string[]>>;
/** In this order in every key, so a signal's pair and a row's pair are spelt alike. */
const FACETS: readonly Facet[] = ['hq', 'industry', 'size', 'persona', 'personCountry'];
/** A faceted row's values, read when it is announced; a missing one matches no filter on it. */
export type RowFacts = Partial<Record<Facet, string | null>>;

/**
 * Roughly how many values a facet spreads over in the data, so that a filter naming n of them
 * passes about n / spread of the rows; only used to pick a signal's narrowest facet.
 */
const FACET_SPREAD: Record<Facet, number> = { hq: 30, personCountry: 30, industry: 100, size: 8, persona: 20 };

/** A row a writer inserted, changed or deleted, as far as waking is concerned. */
export type ArrivedRow =
  /**
   * Ids given (inserted or revised in place): faceted; without, coarse (a deletion). With its
   * `id` and `occurredAt` too, the announcer may screen the signals its keys found.
   */
  | { table: 'events'; type: string; companyId?: string; personId?: string | null; id?: string; occurredAt?: string }
  /** Ids given (inserted): faceted by the person's own values; without, coarse (changed or deleted). */
  | { table: 'people'; personId?: string; companyId?: string }
  /** `inserted`: a new company has no events yet (those announce themselves), so it wakes nobody. */
  | { table: 'companies'; inserted: boolean };

/** The kind of a faceted row (an event's type, or `person`), or undefined for a coarse one. */
export function facetedKind(row: ArrivedRow): string | undefined {
  if (row.table === 'events') return row.companyId ? row.type : undefined;
  if (row.table === 'people') return row.personId ? PERSON_KIND : undefined;
  return undefined;
}

/**
 * The keys a written row announces. A faceted row needs its facts (its company's and person's
 * values, read by the announcer); without them (the company was deleted meanwhile) it is coarse.
 */
export function arrivedRowKeys(row: ArrivedRow, facts?: RowFacts): WakeKey[] {
  if (row.table === 'companies') return row.inserted ? [] : [COMPANY_KEY];
  const kind = row.table === 'events' ? row.type : PERSON_KIND;
  if (!facts || facetedKind(row) === undefined) return [kindKey(kind)];
  const held = FACETS.filter((facet) => facts[facet]).map((facet) => `${facet}:${facts[facet]}`);
  // Each value, and each pair of values (a signal with two filters keys on both at once).
  const keys = [`${kind}@any`, ...held.map((value) => `${kind}@${value}`)];
  for (let i = 0; i < held.length; i++)
    for (let j = i + 1; j < held.length; j++) keys.push(`${kind}@${held[i]}&${held[j]}`);
  return keys;
}

/** At most this many keys for one kind's pair of filters; past it, the narrower single filter. */
const MAX_PAIR_KEYS = 200;

/**
 * The keys a signal wants for faceted rows of one kind: of its filters, the narrowest single one
 * or pair (the share of rows it passes, estimated by the spreads), as the values or value pairs a
 * row must hold; `<kind>@any` when it sets none.
 */
function facetedKeys(kind: string, facets: Facets | 'watched'): WakeKey[] {
  if (facets === 'watched') return [watchedKey(kind)];
  const set = FACETS.filter((facet) => facets[facet] !== undefined);
  const share = (facet: Facet) => facets[facet]!.length / FACET_SPREAD[facet];
  let best: { share: number; keys: () => string[] } = { share: 1, keys: () => ['any'] };
  for (const facet of set) {
    if (share(facet) < best.share)
      best = { share: share(facet), keys: () => facets[facet]!.map((value) => `${facet}:${value}`) };
  }
  for (let i = 0; i < set.length; i++) {
    for (let j = i + 1; j < set.length; j++) {
      const [a, b] = [set[i]!, set[j]!];
      const pairs = facets[a]!.length * facets[b]!.length;
      if (pairs > MAX_PAIR_KEYS || share(a) * share(b) >= best.share) continue;
      best = {
        share: share(a) * share(b),
        keys: () => facets[a]!.flatMap((x) => facets[b]!.map((y) => `${a}:${x}&${b}:${y}`)),
      };
    }
  }
  return best.keys().map((key) => `${kind}@${key}`);
}

export interface SignalRows {
  /** The event kinds its plan reads. */
  kinds: readonly string[];
  /**
   * What each event it could use must hold (a filter left unset: absent), or `watched`: only
   * events at the companies or of the people its own entries name. Only filters that every
   * lead's row must pass belong here.
   */
  events: Facets | 'watched';
  /** When people matter (persona targeting, person-level types): what a new person must hold. */
  people?: Facets | 'watched';
}

/**
 * A signal's keys: for each kind, the coarse key and its faceted keys; `company` (every plan
 * filters on its company); and the same for people when they matter.
 */
export function signalWakeKeys(rows: SignalRows): WakeKey[] {
  const keys = [COMPANY_KEY];
  for (const kind of rows.kinds) keys.push(kindKey(kind), ...facetedKeys(kind, rows.events));
  if (rows.people) keys.push(kindKey(PERSON_KIND), ...facetedKeys(PERSON_KIND, rows.people));
  return keys;
}
