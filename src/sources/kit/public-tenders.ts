import type { CompanyRecordInput, EventRecordInput } from '../../providers/data/records';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { AwardWinner, AwardWinners } from './award-winners';

/** A contract award as every tender source gives it to a `public_tenders` event. */
export interface ContractAward {
  /** The event id's stem, unique per award within the source: `fts:012345-2026:1`. */
  key: string;
  title: string;
  buyer: string;
  /** As stated, in its own currency (never converted); null when the notice states none. */
  value: { amount: number; currency: string | null } | null;
  /** What the value is: `total value` (TED's notice total), `value` (the award's or contract's). */
  valueLabel: string;
  /** `YYYY-MM-DD`. */
  awardedOn: string;
  /** The notice's page on the publisher's site. */
  link: string;
  winners: AwardWinner[];
}

/** The award at the winner's company; `announcement_date` the award day. */
export function publicTendersEvent(award: ContractAward, winner: AwardWinner, companyId: string): EventRecordInput {
  const value = award.value
    ? `${award.value.amount.toLocaleString('en-US', { maximumFractionDigits: 2 })}${award.value.currency ? ` ${award.value.currency}` : ''}`
    : null;
  const summary = [
    `Contract awarded to ${winner.name}`,
    award.buyer ? ` by ${award.buyer}` : '',
    value ? `; ${award.valueLabel} ${value}` : '',
    '.',
  ].join('');
  return {
    kind: 'event',
    id: `${award.key}:${companyId}`.slice(0, 200),
    type: 'public_tenders',
    occurredAt: `${award.awardedOn}T00:00:00Z`,
    companyId,
    data: {
      news_title: (award.title || `Contract award ${award.key}`).slice(0, 20_000),
      news_url: award.link,
      news_summary: summary.slice(0, 20_000),
      announcement_date: award.awardedOn,
    },
  };
}

/**
 * One award: each winner matched (award-winners.ts); the matched ones' companies (when new) and
 * events ingested. A rerun adds nothing: the event ids are the award's and the company's.
 */
export async function ingestAward(
  ingestion: Ingestion,
  winners: AwardWinners,
  award: ContractAward,
  label: string,
): Promise<{ events: number; dropped: number } | { problem: string }> {
  const companies: CompanyRecordInput[] = [];
  const events = new Map<string, EventRecordInput>();
  let dropped = 0;
  for (const winner of award.winners) {
    const match = await winners.resolve(winner);
    if ('dropped' in match) {
      dropped++;
      continue;
    }
    if (match.record && !companies.some((c) => c.id === match.record!.id)) companies.push(match.record);
    const event = publicTendersEvent(award, winner, match.companyId);
    if (!events.has(event.id)) events.set(event.id, event);
  }
  if (events.size === 0) return { events: 0, dropped };
  if (companies.length) {
    const stored = await ingestion.ingest(companies);
    if (stored.rejected > 0) return { problem: `${label}: ${stored.errors[0]?.message ?? 'company refused'}` };
  }
  const result = await ingestion.ingest([...events.values()]);
  if (result.rejected > 0) return { problem: `${label}: ${result.errors[0]?.message ?? 'event refused'}` };
  return { events: result.accepted, dropped };
}
