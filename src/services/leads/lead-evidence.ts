import type { DataSource } from 'typeorm';
import { firstRow, rows } from '../../db/sql';
import { notFound } from '../../errors';
import { signalType } from '../../signal-types/registry';
import { sourceModules } from '../../sources/registry';
import { JOB_BOARD_ATS } from '../../sources/job-boards/platforms';
import { crossingRuleOf, type AccountScoreConfig } from '../../signal-types/account-score';

/** One event that made a lead, as the lead's evidence names it. */
export interface EvidenceEvent {
  eventId: string;
  type: string;
  occurredAt: string;
  /** The intent source that read it (`sec-form-d`, `job-boards`, ...), or `ingest` (operator's ingest, demo feed). */
  source: string;
  /** The record's own address when it has one (the posting, article, notice or filing), else "". */
  url: string;
  /** When the service stored it. */
  readAt: string;
  /** Forecasts carry the events they were made from: passed through as they are stored. */
  evidence?: unknown;
}

export interface EvidenceCondition {
  field: string;
  /** The setting, defaults filled in. */
  required: unknown;
  /** What the lead had, where one value says it (the score, its distinct types). */
  actual?: unknown;
}

export interface LeadWithEvidence {
  lead: unknown;
  leadId: string;
  signalId: string;
  createdAt: string;
  evidence: {
    events: EvidenceEvent[];
    conditions: EvidenceCondition[];
    /** account_score leads: the score at the crossing and its breakdown, as delivered. */
    score?: { score: unknown; grade: unknown; breakdown: unknown };
  };
}

/** Fields of an event's data that hold the record's own address, most specific first. */
const URL_FIELDS = ['job_offer_url', 'news_url', 'post_url', 'filing_url', 'source_url', 'url'];

/** Config fields that shape the lead but are no condition of it. */
const NOT_CONDITIONS = new Set(['getEmails', 'getPhones', 'companies']);

interface LeadRow {
  id: string;
  signal_id: string;
  event_id: string;
  created_at: Date;
  payload: { signal?: Record<string, unknown> };
  signal_type_id: string;
  config: Record<string, unknown>;
}

interface EventRow {
  id: string;
  type: string;
  occurred_at: Date;
  ingested_at: Date;
  data: Record<string, unknown>;
}

/**
 * Why a lead was made (issue 35, item 5): the lead as delivered, the event or events that made
 * it with where each was read, and the signal's conditions it met. The conditions are the
 * signal's settings now (a later edit shows); the events and the score are as of the lead.
 */
export class LeadEvidence {
  constructor(private readonly db: DataSource) {}

  async ofLead(accountId: string, leadId: string): Promise<LeadWithEvidence> {
    const lead = await firstRow<LeadRow>(
      this.db,
      `SELECT l.id, l.signal_id, l.event_id, l.created_at, l.payload, s.signal_type_id, s.config
       FROM leads l JOIN signals s ON s.id = l.signal_id
       WHERE l.id = $1 AND l.account_id = $2 AND s.deleted_at IS NULL`,
      [leadId, accountId],
    );
    if (!lead) throw notFound('Lead');
    const block = lead.payload.signal ?? {};
    const breakdown = Array.isArray(block.score_breakdown) ? (block.score_breakdown as { event_id?: unknown }[]) : null;
    const eventIds = [
      lead.event_id,
      ...(breakdown ?? []).map((part) => part.event_id).filter((id): id is string => typeof id === 'string'),
    ];
    const events = await rows<EventRow>(
      this.db,
      `SELECT id, type, occurred_at, ingested_at, data FROM events WHERE id = ANY($1::text[])`,
      [[...new Set(eventIds)]],
    );
    const byId = new Map(events.map((event) => [event.id, event]));
    // The lead's own event first, then the breakdown's in its order (largest contribution first).
    const ordered = [...new Set(eventIds)].flatMap((id) => byId.get(id) ?? []);
    const isScore = lead.signal_type_id === 'account_score';
    return {
      lead: lead.payload,
      leadId: lead.id,
      signalId: lead.signal_id,
      createdAt: lead.created_at.toISOString(),
      evidence: {
        events: ordered.map(evidenceEvent),
        conditions: conditionsOf(lead, block),
        ...(isScore ? { score: { score: block.score, grade: block.grade, breakdown: block.score_breakdown } } : {}),
      },
    };
  }
}

function evidenceEvent(event: EventRow): EvidenceEvent {
  const url = URL_FIELDS.map((field) => event.data[field]).find(
    (value): value is string => typeof value === 'string' && /^https?:\/\//i.test(value),
  );
  return {
    eventId: event.id,
    type: event.type,
    occurredAt: event.occurred_at.toISOString(),
    source: sourceOfEvent(event.id),
    url: url ?? '',
    readAt: event.ingested_at.toISOString(),
    ...(event.data.evidence !== undefined ? { evidence: event.data.evidence } : {}),
  };
}

/**
 * Sources name their events `<source>:...` (`sec-form-d:`, `ted:`, `companies-house:`); job
 * boards by their ATS (`greenhouse:acme:123`), the people-data vendor `pdl:`. Anything else
 * came through the operator's ingest or the demo feed.
 */
export function sourceOfEvent(eventId: string): string {
  const at = eventId.indexOf(':');
  if (at <= 0) return 'ingest';
  const prefix = eventId.slice(0, at);
  if (prefix === 'forecasts' || sourceModules().some((module) => module.name === prefix)) return prefix;
  if ((JOB_BOARD_ATS as readonly string[]).includes(prefix)) return 'job-boards';
  if (prefix === 'pdl') return 'people-data-labs';
  return 'ingest';
}

/** The signal's settings that decide a lead, with the type's defaults filled in where it has them. */
function conditionsOf(lead: LeadRow, block: Record<string, unknown>): EvidenceCondition[] {
  const type = signalType(lead.signal_type_id);
  const config = type.storedConfig ? type.storedConfig(lead.config) : lead.config;
  const conditions: EvidenceCondition[] = [{ field: 'type', required: type.signalTypeId }];
  if (lead.signal_type_id === 'account_score') {
    const rule = crossingRuleOf(config as AccountScoreConfig);
    conditions.push(
      { field: 'threshold', required: rule.threshold, actual: block.score },
      { field: 'minDistinctTypes', required: rule.minDistinctTypes, actual: block.distinct_types },
      { field: 'cooldownDays', required: rule.cooldownDays },
    );
  }
  for (const [field, value] of Object.entries(config)) {
    if (NOT_CONDITIONS.has(field) || value === null || value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (conditions.some((condition) => condition.field === field)) continue;
    conditions.push({ field, required: value });
  }
  return conditions;
}
