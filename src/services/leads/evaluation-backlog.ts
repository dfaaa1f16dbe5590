import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { execute, firstRow } from '../../db/sql';
import type { Signal } from '../../db/entities/signal';
import { DAY_MS, duplicateWindowDays } from '../../signal-types/kit/evaluation-rules';
import { candidateCondition, evaluationPlan, type BacklogRead, type ReadPosition } from './evaluation';

/**
 * Incremental evaluation (docs/decisions/incremental-evaluation.md). Each signal keeps a
 * backlog of its candidates not yet produced, and the snapshot horizon up to which changes have
 * been moved into it. An evaluation first moves in what changed since (new, late or edited
 * events; edited companies and people; duplicate windows that ran out; events whose date has
 * come), then production reads the backlog in the full evaluation's order. Its first run, and
 * any run after its config changed or its watchlist, suppression list or CRM exclusions let
 * rows back in, reads the whole window instead, a page at a time.
 */

/** Where a full read starts: before any event. */
const START: ReadPosition = { at: '-infinity', eventId: '' };

/** What a signal's evaluation reads the same way from one run to the next; a new basis means a full read. */
export function evaluationBasis(
  signal: Pick<Signal, 'signalTypeId' | 'config' | 'duplicateHandling' | 'crmExclusions'>,
): string {
  return createHash('sha256')
    .update(
      JSON.stringify([signal.signalTypeId, signal.config, signal.duplicateHandling, signal.crmExclusions ?? null]),
    )
    .digest('base64url');
}

interface WatermarkRow {
  evaluated_xid: string | null;
  evaluated_at: Date | null;
  evaluation_basis: string | null;
  full_read_at: string | null;
  full_read_event_id: string | null;
  horizon: string;
}

export class EvaluationBacklog {
  constructor(private readonly db: DataSource) {}

  /**
   * Brings the signal's backlog up to `now`: the changes since its horizon, then, while its
   * full read is under way, the next page of it (at least `wanted` candidates, so production's
   * batch is the full evaluation's batch). One transaction, under the signal's row lock.
   */
  async refresh(signal: Signal, now: Date, wanted: number): Promise<BacklogRead> {
    return this.db.transaction(async (tx) => {
      // The horizon is taken before anything is read: every transaction below it has ended,
      // so what it changed is visible to the reads below; later ones are read next time.
      const mark = await firstRow<WatermarkRow>(
        tx,
        `SELECT evaluated_xid::text, evaluated_at, evaluation_basis, full_read_at::text, full_read_event_id,
           pg_snapshot_xmin(pg_current_snapshot())::text AS horizon
         FROM signals WHERE id = $1 FOR UPDATE`,
        [signal.id],
      );
      if (!mark) return { upTo: null };
      const basis = evaluationBasis(signal);
      let upTo: ReadPosition | null;
      if (mark.evaluated_xid === null || mark.evaluation_basis !== basis) {
        await execute(tx, `DELETE FROM signal_backlog WHERE signal_id = $1`, [signal.id]);
        upTo = START;
      } else {
        await this.moveChanges(tx, signal, now, mark.evaluated_xid, mark.evaluated_at ?? now);
        upTo = mark.full_read_at ? { at: mark.full_read_at, eventId: mark.full_read_event_id ?? '' } : null;
      }
      if (upTo) upTo = await this.readPage(tx, signal, now, upTo, wanted);
      await this.dropAged(tx, signal, now);
      await execute(
        tx,
        `UPDATE signals SET evaluated_xid = $2::xid8, evaluated_at = $3, evaluation_basis = $4,
           full_read_at = $5::timestamptz, full_read_event_id = $6 WHERE id = $1`,
        [signal.id, mark.horizon, now, basis, upTo?.at ?? null, upTo?.eventId ?? null],
      );
      return { upTo };
    });
  }

  /** Produced leads leave the backlog (in production's transaction). */
  static async removeProduced(tx: EntityManager, signalId: string, eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await execute(tx, `DELETE FROM signal_backlog WHERE signal_id = $1 AND event_id = ANY($2::text[])`, [
      signalId,
      eventIds,
    ]);
  }

  /** The candidates among the rows that changed since the horizon, into the backlog. */
  private async moveChanges(tx: EntityManager, signal: Signal, now: Date, since: string, lastAt: Date): Promise<void> {
    const plan = evaluationPlan(signal, now);
    const { args } = plan;
    const xid = `$${args.push(since)}::xid8`;
    const windowStart = `$${args.push(plan.eligibleSince)}::timestamptz`;
    // Each source of change as the events it concerns (`e`), of the plan's kinds inside the window.
    const sources = [
      `events e WHERE e.change_xid >= ${xid}`,
      `companies x JOIN events e ON e.company_id = x.id WHERE x.change_xid >= ${xid}`,
      `people x JOIN events e ON e.person_id = x.id WHERE x.change_xid >= ${xid}`,
      // Events whose date has come since the last refresh (stored while still in the future).
      `events e WHERE e.occurred_at > $${args.push(lastAt)}::timestamptz AND e.occurred_at <= $${args.push(now)}::timestamptz`,
      // The person the company's events name now, if new or changed (one who stops being named marks the company).
      ...(plan.namedPeople
        ? [
            `people x JOIN events e ON e.company_id = x.company_id WHERE x.change_xid >= ${xid} AND ${plan.namedPeople('x')}
             AND NOT EXISTS (SELECT 1 FROM people y WHERE y.company_id = x.company_id AND ${plan.namedPeople('y')} AND y.id < x.id)`,
          ]
        : []),
      ...expiredDuplicates(signal, args, now, lastAt),
      // The account score: an event arrived, changed or came due changes the crossings of its company's later events.
      ...(plan.companyWide
        ? [
            `events x JOIN events e ON e.company_id = x.company_id WHERE x.change_xid >= ${xid}`,
            `events x JOIN events e ON e.company_id = x.company_id
               WHERE x.occurred_at > $${args.push(lastAt)}::timestamptz AND x.occurred_at <= $${args.push(now)}::timestamptz`,
          ]
        : []),
    ];
    const changed = sources.map(
      (source) => `SELECT e.id FROM ${source} AND ${plan.kind} AND e.occurred_at >= ${windowStart}`,
    );
    await execute(
      tx,
      `INSERT INTO signal_backlog (signal_id, event_id, occurred_at)
       SELECT $1, e.id, e.occurred_at
       FROM (${changed.join('\n UNION ')}) changed JOIN events e ON e.id = changed.id ${plan.joins}
       WHERE ${candidateCondition(plan)}
       ON CONFLICT (signal_id, event_id) DO UPDATE SET occurred_at = EXCLUDED.occurred_at`,
      args,
    );
  }

  /** The full read's next page after `after`, into the backlog; null once the window is read to its end. */
  private async readPage(
    tx: EntityManager,
    signal: Signal,
    now: Date,
    after: ReadPosition,
    wanted: number,
  ): Promise<ReadPosition | null> {
    const plan = evaluationPlan(signal, now);
    const { args } = plan;
    const at = `$${args.push(after.at)}::timestamptz`;
    const last = await firstRow<{ read: number; at: string; event_id: string }>(
      tx,
      `WITH page AS (
         INSERT INTO signal_backlog (signal_id, event_id, occurred_at)
         SELECT $1, e.id, e.occurred_at FROM events e ${plan.joins}
         WHERE ${candidateCondition(plan)}
           -- The plain bound lets the (type, occurred_at) index start the scan where the page does.
           AND e.occurred_at >= ${at} AND (e.occurred_at, e.id) > (${at}, $${args.push(after.eventId)}::text)
         ORDER BY e.occurred_at, e.id LIMIT $${args.push(wanted)}
         ON CONFLICT (signal_id, event_id) DO UPDATE SET occurred_at = EXCLUDED.occurred_at
         RETURNING event_id, occurred_at)
       SELECT (SELECT count(*) FROM page)::int AS read, occurred_at::text AS at, event_id
       FROM page ORDER BY occurred_at DESC, event_id DESC LIMIT 1`,
      args,
    );
    if (!last || last.read < wanted) return null;
    return { at: last.at, eventId: last.event_id };
  }

  /** Rows that left the window for good (it only slides forward) leave the backlog. */
  private async dropAged(tx: EntityManager, signal: Signal, now: Date): Promise<void> {
    const plan = evaluationPlan(signal, now);
    await execute(tx, `DELETE FROM signal_backlog WHERE signal_id = $1 AND occurred_at < $2`, [
      signal.id,
      plan.eligibleSince,
    ]);
  }
}

/**
 * Subjects whose last lead fell out of the `<X>d` duplicate window since the last refresh may
 * have a lead again: the events at their lead's company, and of a person subject and at that person's company, are read again.
 */
function expiredDuplicates(signal: Signal, args: unknown[], now: Date, lastAt: Date): string[] {
  const days = duplicateWindowDays(signal.duplicateHandling);
  if (days === 0 || !Number.isFinite(days)) return [];
  const expired = `l.signal_id = $1 AND l.created_at > $${args.push(new Date(lastAt.getTime() - days * DAY_MS))}::timestamptz
    AND l.created_at <= $${args.push(new Date(now.getTime() - days * DAY_MS))}::timestamptz`;
  return [
    `leads l JOIN events le ON le.id = l.event_id JOIN events e ON e.company_id = le.company_id WHERE ${expired}`,
    `leads l JOIN events e ON e.person_id = substr(l.subject_key, 8) WHERE ${expired} AND l.subject_key LIKE 'person:%'`,
    `leads l JOIN people sp ON sp.id = substr(l.subject_key, 8) JOIN events e ON e.company_id = sp.company_id
       WHERE ${expired} AND l.subject_key LIKE 'person:%'`,
  ];
}
