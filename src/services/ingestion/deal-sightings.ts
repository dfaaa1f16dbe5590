import type { DataSource, EntityManager } from 'typeorm';
import { execute, firstRow } from '../../db/sql';
import type { EventRecord } from '../../providers/data/records';

/**
 * Records of one deal seen within this many days of its first record are that deal: a tender
 * offer's bidder and target file within days, a merger's proxy and its completion 8-K within
 * months (docs/decisions/deals.md).
 */
export const DEAL_WINDOW_DAYS = 270;
/** Two records neither of which names the other party are one deal only this close together, and of one deal type. */
export const UNNAMED_DEAL_WINDOW_DAYS = 30;

/** Words a party's name may carry or drop from one filing to the next ("Acme Corp." / "ACME CORPORATION"). */
const PARTY_NAME_NOISE = new Set(
  'inc incorporated corp corporation co company ltd limited llc lp llp plc sa ag nv bv gmbh se the holdings holding group merger sub subsidiary acquisition'.split(
    ' ',
  ),
);

/** A deal party's name as deals compare it: lower case, no accents, punctuation or legal words; null when nothing is left. */
export function dealPartyKey(name: string | null | undefined): string | null {
  if (!name) return null;
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((word) => word && !PARTY_NAME_NOISE.has(word));
  return words.length ? words.join(' ') : null;
}

/** What ingestion decided for one `mergers_acquisitions` record. */
export type DealPlacement = { kind: 'new' } | { kind: 'linked'; eventId: string } | { kind: 'seen' };

/**
 * One deal, one event (docs/decisions/deals.md): a `mergers_acquisitions` record whose company,
 * role and counterparty agree with a deal seen within {@link DEAL_WINDOW_DAYS} (within
 * {@link UNNAMED_DEAL_WINDOW_DAYS} when neither names the other party) is linked to that
 * deal's event (the first record's) instead of becoming an event of its own. Every record is a
 * row of `deal_sightings`, the first one pointing at itself.
 */
export class DealSightings {
  constructor(private readonly db: DataSource) {}

  /**
   * Places one record; `insert` stores its event when it is a new deal. Records of one company
   * are placed one at a time (a transaction-scoped advisory lock), so two workers reading two
   * filings of one deal make one event.
   */
  async place(
    record: EventRecord,
    counterparty: string | null,
    insert: (manager: EntityManager) => Promise<number>,
  ): Promise<DealPlacement> {
    const role = typeof record.data.watchlist_role === 'string' ? record.data.watchlist_role : '';
    const dealType = typeof record.data.deal_type === 'string' ? record.data.deal_type : null;
    const announced = typeof record.data.announcement_date === 'string' ? record.data.announcement_date : '';
    const seenOn = announced || record.occurredAt.slice(0, 10);
    const party = dealPartyKey(counterparty);
    return this.db.transaction(async (manager) => {
      await execute(manager, `SELECT pg_advisory_xact_lock(hashtext('deal:' || $1))`, [record.companyId]);
      const known = await firstRow<{ event_id: string }>(
        manager,
        `SELECT event_id FROM deal_sightings WHERE record_id = $1`,
        [record.id],
      );
      if (known) return { kind: 'seen' };
      const stored = await firstRow<{ id: string }>(manager, `SELECT id FROM events WHERE id = $1`, [record.id]);
      if (stored) return { kind: 'seen' };
      // An acquirer makes many deals: its records are one deal only when both name the same target.
      const deal = await firstRow<{ event_id: string }>(
        manager,
        `SELECT event_id FROM deal_sightings
         WHERE company_id = $1 AND watchlist_role = $2
           AND abs(seen_on - $3::date) <= $4
           AND CASE WHEN $2 = 'acquirer' THEN counterparty_key = $5
                    WHEN counterparty_key IS NULL AND $5::text IS NULL
                      THEN abs(seen_on - $3::date) <= $6 AND deal_type IS NOT DISTINCT FROM $7::text
                    ELSE counterparty_key IS NULL OR $5::text IS NULL OR counterparty_key = $5 END
         ORDER BY seen_on, created_at LIMIT 1`,
        [record.companyId, role, seenOn, DEAL_WINDOW_DAYS, party, UNNAMED_DEAL_WINDOW_DAYS, dealType],
      );
      const eventId = deal?.event_id ?? record.id;
      if (!deal && (await insert(manager)) === 0) return { kind: 'seen' };
      await execute(
        manager,
        `INSERT INTO deal_sightings (record_id, event_id, company_id, watchlist_role, deal_type, counterparty_key, counterparty, seen_on)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::date) ON CONFLICT (record_id) DO NOTHING`,
        [record.id, eventId, record.companyId, role, dealType, party, counterparty, seenOn],
      );
      return deal ? { kind: 'linked', eventId } : { kind: 'new' };
    });
  }
}
