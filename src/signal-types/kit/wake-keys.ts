/**
 * Wake on arrival (docs/decisions/wake-on-arrival.md): a signal's workflow is told when a row
 * that may concern it is written, instead of waiting for its next timed evaluation. Both sides
 * of the match come from here: a signal type says which keys may concern a signal of a config
 * (`SignalType.wakeKeys`), and a writer turns each row it inserted, changed or deleted into keys
 * with {@link arrivedRowKeys}. The keys are coarse on purpose: they may wake a signal that then
 * finds nothing, never leave one asleep that a full read would give a lead.
 */

/** One key: `kind:<event type>`, `person` or `company`. */
export type WakeKey = string;

/** Any event of this type inserted, edited or deleted. */
export const eventKindKey = (eventType: string): WakeKey => `kind:${eventType}`;
/** A person inserted, changed or deleted: persona targeting names the first matching person, job changes read the person. */
export const PERSON_KEY: WakeKey = 'person';
/** A company's columns a plan reads changed (its events may now pass filters they failed). */
export const COMPANY_KEY: WakeKey = 'company';

/** A row a writer inserted, changed or deleted, as far as waking is concerned. */
export type ArrivedRow =
  | { table: 'events'; type: string }
  | { table: 'people' }
  /** `inserted`: a new company has no events yet (those announce themselves), so it wakes nobody. */
  | { table: 'companies'; inserted: boolean };

/** The keys a written row announces. */
export function arrivedRowKeys(row: ArrivedRow): WakeKey[] {
  switch (row.table) {
    case 'events':
      return [eventKindKey(row.type)];
    case 'people':
      return [PERSON_KEY];
    case 'companies':
      return row.inserted ? [] : [COMPANY_KEY];
  }
}

/**
 * The keys of a signal that reads events of `eventTypes`: the kinds, company changes (every
 * plan filters on its company), and person changes when `readsPeople` (persona targeting, or a
 * person-level type).
 */
export function keysOfKinds(eventTypes: readonly string[], readsPeople: boolean): WakeKey[] {
  return [...eventTypes.map(eventKindKey), COMPANY_KEY, ...(readsPeople ? [PERSON_KEY] : [])];
}
