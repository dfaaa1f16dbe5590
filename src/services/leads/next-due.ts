import type { EntityManager } from 'typeorm';
import { firstRow } from '../../db/sql';
import type { Signal } from '../../db/entities/signal';
import type { Clock } from '../../clock';
import { signalType } from '../../signal-types/registry';
import { DAY_MS, duplicateWindowDays } from '../../signal-types/kit/evaluation-rules';
import { PERSON_KIND, kindKey } from '../../signal-types/kit/wake-keys';

/**
 * When passing time alone may next give a signal a lead (docs/decisions/wake-on-arrival.md):
 * nothing announces these, so the evaluation answers the instant and the signal workflow wakes
 * then. Every other way a non-lead becomes a lead is a written row, a tell or a message.
 */

/** The start of the UTC day after `now`'s: a signal at its daily cap may produce again then. */
export function nextCapDay(clock: Clock, now: Date): Date {
  return new Date(Date.parse(`${clock.utcDay(now)}T00:00:00Z`) + DAY_MS);
}

/**
 * The earliest instant after `now` at which an event dated ahead of the signal's kinds comes
 * into its window, or a subject's last lead leaves its `<X>d` duplicate window; null when none.
 * Over-selects (the plan's filters aside, and any lead's window, not only a blocking one's), so
 * it may be early, never late. Two index reads: events (type, occurred_at) and leads (signal_id,
 * created_at).
 */
export async function nextDueByTime(tx: EntityManager, signal: Signal, now: Date): Promise<Date | null> {
  const args: unknown[] = [now];
  const kinds = planKinds(signal);
  // A type without wake keys names no kinds: any event dated ahead may be its.
  const kind = kinds ? `AND e.type = ANY($${args.push(kinds)}::text[])` : '';
  const days = duplicateWindowDays(signal.duplicateHandling);
  const windowed = days > 0 && Number.isFinite(days);
  let repeat = 'NULL::timestamptz';
  if (windowed) {
    // Hours, not days: a day interval follows the session time zone's DST; the window is 24 h a day.
    const window = `$${args.push(`${days * 24} hours`)}::interval`;
    repeat = `(SELECT min(l.created_at) + ${window} FROM leads l
      WHERE l.signal_id = $${args.push(signal.id)}::uuid AND l.created_at > $1::timestamptz - ${window})`;
  }
  const due = await firstRow<{ at: Date | null }>(
    tx,
    `SELECT least((SELECT min(e.occurred_at) FROM events e WHERE e.occurred_at > $1::timestamptz ${kind}), ${repeat}) AS at`,
    args,
  );
  return due?.at ?? null;
}

/**
 * The event kinds the signal's plan reads, from its wake keys (`kind:<kind>`, checked against
 * the plan's `e.type` conditions by test/evaluation/wake-keys.test.ts); null without them.
 */
function planKinds(signal: Signal): string[] | null {
  const keys = signalType(signal.signalTypeId).wakeKeys?.(signal.config);
  if (!keys) return null;
  const person = kindKey(PERSON_KIND);
  return keys.filter((key) => key.startsWith('kind:') && key !== person).map((key) => key.slice('kind:'.length));
}
