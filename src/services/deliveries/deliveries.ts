import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Config } from '../../config';
import { notFound, validationError } from '../../errors';
import type { ApiKeys } from '../api-keys';
import { assertWebhookTarget } from '../webhook-targets';
import type { Candidate } from '../leads/candidate';
import { buildLeadPayload } from '../leads/payload';
import type { SendResult, WebhookSender } from './webhook-sender';
import { inTurns } from './in-turns';
import { endpointOf } from './endpoint-rates';
import { replayBody } from './replays';
import { destinationRoutesOf, type DestinationSender, type PushResult } from './destination-sender';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What the lead workflow needs to start one delivery workflow. */
export interface PlannedDelivery {
  deliveryId: string;
  signalId: string;
  leadId: string;
  route: string;
  target: string;
}

export type AttemptOutcome =
  /** `statusCode` is null for a sequencer or CRM push, which is several vendor calls. */
  | { outcome: 'delivered'; statusCode: number | null }
  /** Not pending any more (delivered by an earlier attempt, failed, or cancelled with its signal). */
  | { outcome: 'settled'; status: DeliveryStatus }
  | { outcome: 'retry'; statusCode: number | null; retryAfterMs?: number; error: string }
  | { outcome: 'permanent'; statusCode: number | null; error: string };

/** A send of a batch, to be recorded with the others: the delivery, its attempt number, what the receiver said and when. */
interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  result: SendResult;
  at: Date;
}

export interface DeliveryListQuery {
  status?: DeliveryStatus;
  leadId?: string;
  limit: number;
  offset: number;
}

export interface DeliveryItem {
  id: string;
  leadId: string | null;
  route: string;
  kind: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface TestWebhookResult {
  success: boolean;
  statusCode: number | null;
  payloadSent: Record<string, unknown>;
  signed: boolean;
}

interface SignalRow {
  id: string;
  account_id: string;
  api_key_id: string | null;
  name: string;
  signal_type_id: string;
  webhook_url: string | null;
  config: Record<string, unknown>;
}

/**
 * Deliveries of leads to their routes (the webhook, and each destination: sequencer or CRM).
 * PostgreSQL holds every delivery and attempt; the delivery workflow only decides when to try again.
 */
export class Deliveries {
  constructor(
    private readonly db: DataSource,
    private readonly config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'>,
    private readonly apiKeys: ApiKeys,
    private readonly sender: WebhookSender,
    /** Sequencer and CRM routes (`destinations`). */
    private readonly destinations: DestinationSender,
  ) {}

  /**
   * One delivery per route of each lead's signal, in a few statements for the whole batch.
   * Idempotent: a retried activity finds the rows (and so the ids, the stable X-Webhook-Id)
   * made by the first try. Answers the deliveries in the order of `leadIds`, then route.
   */
  async createForLeads(leadIds: string[]): Promise<PlannedDelivery[]> {
    if (leadIds.length === 0) return [];
    await this.db.query(
      `INSERT INTO deliveries (id, lead_id, signal_id, account_id, route, target, kind)
       SELECT gen_random_uuid(), l.id, l.signal_id, l.account_id, 'webhook', s.webhook_url, 'lead'
       FROM leads l JOIN signals s ON s.id = l.signal_id
       WHERE l.id = ANY($1::uuid[]) AND s.deleted_at IS NULL AND s.webhook_url IS NOT NULL
       ON CONFLICT (lead_id, route, kind) WHERE kind = 'lead' DO NOTHING`,
      [leadIds],
    );
    // One per destination, fixed now: a destination changed later applies to later leads.
    // The integration must still be this account's, else the attempt resolves it (or fails).
    const withDestinations = await this.db.query(
      `SELECT l.id, l.signal_id, l.account_id, s.destinations FROM leads l JOIN signals s ON s.id = l.signal_id
       WHERE l.id = ANY($1::uuid[]) AND s.deleted_at IS NULL AND s.destinations <> '{}'::jsonb`,
      [leadIds],
    );
    for (const lead of withDestinations) {
      for (const route of destinationRoutesOf(lead.destinations)) {
        await this.db.query(
          `INSERT INTO deliveries (id, lead_id, signal_id, account_id, route, target, kind, integration_id)
           VALUES ($1, $2, $3, $4, $5, $6, 'lead',
             (SELECT id FROM integrations WHERE id::text = $7 AND account_id = $4 AND provider = $5))
           ON CONFLICT (lead_id, route, kind) WHERE kind = 'lead' DO NOTHING`,
          [randomUUID(), lead.id, lead.signal_id, lead.account_id, route.route, route.target, route.integrationId],
        );
      }
    }
    const rows = await this.db.query(
      `SELECT d.id, d.signal_id, d.lead_id, d.route, d.target
       FROM unnest($1::uuid[]) WITH ORDINALITY AS batch(lead_id, position)
       JOIN deliveries d ON d.lead_id = batch.lead_id AND d.kind = 'lead'
       JOIN signals s ON s.id = d.signal_id AND s.deleted_at IS NULL
       ORDER BY batch.position, d.route`,
      [leadIds],
    );
    return rows.map((r: Record<string, string>) => ({ deliveryId: r.id, signalId: r.signal_id, leadId: r.lead_id, route: r.route, target: r.target }));
  }

  async createForLead(leadId: string): Promise<PlannedDelivery[]> {
    return this.createForLeads([leadId]);
  }

  /**
   * One attempt of a pending lead delivery: the stored payload text as is, signed with the
   * current secret of the signal's key (a regenerated secret signs the very next attempt).
   * `backoffMs` is the caller's expected wait before the next try, shown as `nextAttemptAt`.
   */
  async attempt(deliveryId: string, options: { backoffMs?: number } = {}): Promise<AttemptOutcome> {
    // One round trip: the attempt is counted, and the stored payload and the signing secret
    // (the linked key's, while not revoked) come back with it. TypeORM answers an
    // UPDATE … RETURNING with [rows, affected].
    const [[delivery]] = await this.db.query(
      `UPDATE deliveries d SET attempts = attempts + 1, updated_at = now() WHERE d.id = $1 AND d.status = 'pending'
       RETURNING d.id, d.lead_id, d.signal_id, d.account_id, d.route, d.target, d.integration_id, d.attempts, d.kind,
         (SELECT l.payload::text FROM leads l WHERE l.id = d.lead_id) AS payload,
         (SELECT k.webhook_secret_encrypted FROM signals s JOIN api_keys k ON k.id = s.api_key_id AND k.revoked_at IS NULL
          WHERE s.id = d.signal_id) AS sealed_secret`,
      [deliveryId],
    );
    if (!delivery) {
      const [row] = await this.db.query(`SELECT status FROM deliveries WHERE id = $1`, [deliveryId]);
      return { outcome: 'settled', status: (row?.status ?? 'cancelled') as DeliveryStatus };
    }
    if (delivery.payload === null) {
      await this.settle(deliveryId, 'failed', null, 'lead no longer exists');
      return { outcome: 'permanent', statusCode: null, error: 'lead no longer exists' };
    }
    const source = { payload: delivery.payload as string, secret: this.apiKeys.openWebhookSecret(delivery.sealed_secret) };
    const sent = delivery.route === 'webhook' ? await this.sendWebhook(delivery, source) : await this.push(delivery, source.payload);
    const outcome = outcomeOf(sent);
    if (outcome.outcome === 'retry') {
      const waitMs = outcome.retryAfterMs ?? options.backoffMs ?? null;
      await this.db.query(
        `UPDATE deliveries SET last_status_code = $2, last_error = $3, updated_at = now(),
           next_attempt_at = CASE WHEN $4::int IS NULL THEN NULL ELSE now() + make_interval(secs => $4::int / 1000.0) END
         WHERE id = $1 AND status = 'pending'`,
        [deliveryId, outcome.statusCode, outcome.error, waitMs],
      );
    } else if (outcome.outcome === 'delivered') await this.settle(deliveryId, 'delivered', outcome.statusCode, null);
    else if (outcome.outcome === 'permanent') await this.settle(deliveryId, 'failed', outcome.statusCode, outcome.error);
    return outcome;
  }

  /**
   * One attempt of each of these pending webhook deliveries, bookkept for the whole batch: one
   * statement counts every attempt and brings back the payloads and secrets, the sends run
   * `atOnce` at a time, and one statement records every attempt and its outcome. Same rules
   * and rows as `attempt`, two statements per batch instead of three per delivery. Once an
   * endpoint answers 429, nothing more of the batch is sent to it: those deliveries are
   * uncounted again and answer `unsent`, for the caller to pace. A crash between the two
   * statements leaves the deliveries pending: the retried batch sends them again under the same
   * X-Webhook-Id. Answers the outcomes in the order of `deliveryIds`.
   */
  async attemptWebhooks(deliveryIds: string[], options: { backoffMs: number; atOnce: number }): Promise<Array<AttemptOutcome | { outcome: 'unsent' }>> {
    if (deliveryIds.length === 0) return [];
    const [pending]: [Array<{ id: string; target: string; attempts: number; kind: string; payload: string | null; sealed_secret: string | null }>] =
      await this.db.query(
        `UPDATE deliveries d SET attempts = attempts + 1, updated_at = now()
         WHERE d.id = ANY($1::uuid[]) AND d.status = 'pending' AND d.route = 'webhook'
         RETURNING d.id, d.target, d.attempts, d.kind,
           (SELECT l.payload::text FROM leads l WHERE l.id = d.lead_id) AS payload,
           (SELECT k.webhook_secret_encrypted FROM signals s JOIN api_keys k ON k.id = s.api_key_id AND k.revoked_at IS NULL
            WHERE s.id = d.signal_id) AS sealed_secret`,
        [deliveryIds],
      );
    const byId = new Map(pending.map((row) => [row.id, row]));
    // A batch is one signal's: its secret is opened once, not once per lead.
    const secrets = new Map<string | null, string | null>([[null, null]]);
    const secretOf = (sealed: string | null) => {
      if (!secrets.has(sealed)) secrets.set(sealed, this.apiKeys.openWebhookSecret(sealed));
      return secrets.get(sealed)!;
    };
    const throttled = new Set<string | null>();
    const sendable = pending.filter((row) => row.payload !== null);
    const answers = await inTurns(sendable, options.atOnce, async (row): Promise<AttemptRecord | null> => {
      const origin = endpointOf(row.target);
      if (throttled.has(origin)) return null;
      const attempt = row.attempts;
      const body = webhookBody(row.kind, row.payload!);
      const result = await this.sender.sendUnrecorded({ deliveryId: row.id, attempt, url: row.target, body, secret: secretOf(row.sealed_secret) });
      if (result.outcome === 'retry' && result.statusCode === 429) throttled.add(origin);
      return { deliveryId: row.id, attempt, result, at: new Date() };
    });
    const sent = answers.filter((record): record is AttemptRecord => record !== null);
    const held = sendable.filter((_, i) => answers[i] === null).map((row) => row.id);
    await this.recordWebhookOutcomes(sent, held, options.backoffMs);
    for (const row of pending) if (row.payload === null) await this.settle(row.id, 'failed', null, 'lead no longer exists');

    const outcomes = new Map(sent.map((record) => [record.deliveryId, outcomeOf(record.result)]));
    const settledStatus = deliveryIds.some((id) => !byId.has(id)) ? await this.statusesOf(deliveryIds.filter((id) => !byId.has(id))) : new Map();
    return deliveryIds.map((id) => {
      const row = byId.get(id);
      if (!row) return { outcome: 'settled', status: settledStatus.get(id) ?? 'cancelled' };
      if (row.payload === null) return { outcome: 'permanent', statusCode: null, error: 'lead no longer exists' };
      return outcomes.get(id) ?? { outcome: 'unsent' };
    });
  }

  /** The attempt rows and each delivery's new state, and the count taken back for those held back, in one statement. */
  private async recordWebhookOutcomes(sent: AttemptRecord[], held: string[], backoffMs: number): Promise<void> {
    if (sent.length === 0 && held.length === 0) return;
    const statusOf = (r: SendResult) => (r.outcome === 'ok' ? 'delivered' : r.outcome === 'permanent' ? 'failed' : 'pending');
    await this.db.query(
      `WITH outcome AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::int[])
           AS o(delivery_id, attempt, at, status_code, duration_ms, error, status, wait_ms)
       ), attempts AS (
         INSERT INTO delivery_attempts (delivery_id, attempt, at, status_code, duration_ms, error)
         SELECT delivery_id, attempt, at, status_code, duration_ms, error FROM outcome
       ), not_attempted AS (
         UPDATE deliveries SET attempts = attempts - 1, updated_at = now() WHERE id = ANY($9::uuid[])
       )
       UPDATE deliveries d SET status = o.status, last_status_code = o.status_code, last_error = o.error, updated_at = now(),
         next_attempt_at = CASE WHEN o.status = 'pending' THEN now() + make_interval(secs => o.wait_ms / 1000.0) END
       FROM outcome o WHERE d.id = o.delivery_id AND d.status = 'pending'`,
      [
        sent.map((s) => s.deliveryId),
        sent.map((s) => s.attempt),
        sent.map((s) => s.at),
        sent.map((s) => s.result.statusCode),
        sent.map((s) => s.result.durationMs),
        sent.map((s) => (s.result.outcome === 'ok' ? null : s.result.error)),
        sent.map((s) => statusOf(s.result)),
        sent.map((s) => (s.result.outcome === 'retry' ? (s.result.retryAfterMs ?? backoffMs) : null)),
        held,
      ],
    );
  }

  private async statusesOf(deliveryIds: string[]): Promise<Map<string, DeliveryStatus>> {
    const rows: Array<{ id: string; status: DeliveryStatus }> = await this.db.query(`SELECT id, status FROM deliveries WHERE id = ANY($1::uuid[])`, [deliveryIds]);
    return new Map(rows.map((r) => [r.id, r.status]));
  }

  /** The end of a delivery whose retries ran out (or that failed permanently); idempotent. */
  async markFailed(deliveryId: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = coalesce(last_error, $2), updated_at = now()
       WHERE id = $1 AND status = 'pending'`,
      [deliveryId, reason],
    );
  }

  /** A delivery whose workflow was cancelled (its signal deleted); idempotent. */
  async markCancelled(deliveryId: string): Promise<void> {
    await this.db.query(
      `UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, updated_at = now() WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
  }

  async cancelForSignal(signalId: string): Promise<number> {
    return (await cancelPendingDeliveries(this.db, signalId)).length;
  }

  async list(accountId: string, signalId: string, query: DeliveryListQuery) {
    await this.signalOf(accountId, signalId);
    const where = ['signal_id = $1'];
    const params: unknown[] = [signalId];
    if (query.status) where.push(`status = $${params.push(query.status)}`);
    if (query.leadId) where.push(`lead_id = $${params.push(query.leadId)}`);
    const filter = where.join(' AND ');
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM deliveries WHERE ${filter}`, params);
    const rows = await this.db.query(
      `SELECT id, lead_id, route, kind, status, attempts, last_status_code, last_error, next_attempt_at, created_at
       FROM deliveries WHERE ${filter} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.limit, query.offset],
    );
    const items: DeliveryItem[] = rows.map((r: Record<string, any>) => ({
      id: r.id,
      leadId: r.lead_id,
      route: r.route,
      kind: r.kind,
      status: r.status,
      attempts: r.attempts,
      lastStatusCode: r.last_status_code,
      lastError: r.last_error,
      nextAttemptAt: r.next_attempt_at ? new Date(r.next_attempt_at).toISOString() : null,
      createdAt: new Date(r.created_at).toISOString(),
    }));
    return { items, total, limit: query.limit, offset: query.offset, hasMore: query.offset + items.length < total };
  }

  /**
   * The specification's synchronous test: a sample lead of the signal's type, marked
   * `is_test`, sent once (no retries) under a new delivery id, to the saved webhook or to `url`.
   */
  async testWebhook(accountId: string, signalId: string, url?: string): Promise<TestWebhookResult> {
    const signal = await this.signalOf(accountId, signalId);
    if (url !== undefined) await assertWebhookTarget(url, this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS, 'url');
    const target = url ?? signal.webhook_url;
    if (!target) throw validationError([{ field: 'url', message: 'the signal has no webhookUrl; send a url to test' }]);
    const deliveryId = randomUUID();
    const payload = buildLeadPayload(
      randomUUID(),
      new Date(),
      { id: signal.id, name: signal.name, signalTypeId: signal.signal_type_id, getPhones: signal.config.getPhones === true },
      sampleCandidate(signal.signal_type_id),
    );
    const payloadSent: Record<string, unknown> = { ...payload, signal: { ...payload.signal, is_test: true } };
    const secret = signal.api_key_id ? await this.apiKeys.webhookSecret(signal.api_key_id) : null;
    await this.db.query(
      `INSERT INTO deliveries (id, lead_id, signal_id, account_id, route, target, kind, attempts) VALUES ($1, NULL, $2, $3, 'webhook', $4, 'test', 1)`,
      [deliveryId, signal.id, signal.account_id, target],
    );
    const sent = await this.sender.send({ deliveryId, attempt: 1, url: target, body: JSON.stringify(payloadSent), secret });
    await this.settle(deliveryId, sent.outcome === 'ok' ? 'delivered' : 'failed', sent.statusCode, sent.outcome === 'ok' ? null : sent.error);
    return { success: sent.outcome === 'ok', statusCode: sent.statusCode, payloadSent, signed: secret !== null };
  }

  private async sendWebhook(delivery: { id: string; target: string; attempts: number; kind: string }, source: { payload: string; secret: string | null }) {
    const body = webhookBody(delivery.kind, source.payload);
    return this.sender.send({ deliveryId: delivery.id, attempt: delivery.attempts, url: delivery.target, body, secret: source.secret });
  }

  /** A sequencer or CRM route: the same stored payload, mapped for the tool and pushed through its adapter. */
  private async push(delivery: Record<string, any>, payload: string) {
    return this.destinations.send({
      deliveryId: delivery.id as string,
      attempt: delivery.attempts as number,
      accountId: delivery.account_id as string,
      leadId: delivery.lead_id as string,
      route: delivery.route as string,
      target: delivery.target as string,
      integrationId: (delivery.integration_id as string | null) ?? null,
      payload,
    });
  }

  private async settle(deliveryId: string, status: DeliveryStatus, statusCode: number | null, error: string | null): Promise<void> {
    await this.db.query(
      `UPDATE deliveries SET status = $2, last_status_code = $3, last_error = $4, next_attempt_at = NULL, updated_at = now()
       WHERE id = $1 AND status = 'pending'`,
      [deliveryId, status, statusCode, error],
    );
  }

  private async signalOf(accountId: string, signalId: string): Promise<SignalRow> {
    const [signal] = await this.db.query(
      `SELECT id, account_id, api_key_id, name, signal_type_id, webhook_url, config FROM signals
       WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
      [signalId, accountId],
    );
    if (!signal) throw notFound('Signal');
    return signal;
  }
}

/**
 * A deleted signal sends nothing more: its pending deliveries are cancelled here, and the signal
 * lifecycle then cancels their workflows (the answered rows); a workflow it misses still ends
 * at its next attempt, which finds the row no longer pending. A function of the database alone
 * so that the signal lifecycle can call it without the delivery service.
 */
export async function cancelPendingDeliveries(db: DataSource, signalId: string): Promise<Array<{ id: string; kind: string }>> {
  // TypeORM answers an UPDATE … RETURNING with [rows, affected].
  const [rows] = await db.query(
    `UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, updated_at = now()
     WHERE signal_id = $1 AND status = 'pending' RETURNING id, kind`,
    [signalId],
  );
  return rows;
}

/** A realistic made-up lead for test sends: a person-level event of the signal's type. */
function sampleCandidate(signalTypeId: string): Candidate {
  const watchlist = signalTypeId === 'account_watchlist';
  const occurredAt = new Date(Date.now() - 2 * 86_400_000);
  return {
    event_id: 'sample',
    event_type: watchlist ? 'new_decision_makers' : 'job_change',
    occurred_at: occurredAt,
    data: watchlist
      ? { watchlist_role: 'Chief Technology Officer', new_job_started_on: '10/2026', new_job_start_month: '2026-10' }
      : {
          previous_title: 'VP Engineering',
          previous_company: 'Northwind Labs',
          new_title: 'Chief Technology Officer',
          new_company: 'Acme Analytics',
          new_job_started_on: '10/2026',
          new_job_start_month: '2026-10',
          change_type: 'company',
        },
    company_id: 'sample-company',
    company_name: 'Acme Analytics',
    company_domain: 'acme-analytics.example',
    company_linkedin_url: 'https://www.linkedin.com/company/acme-analytics-example',
    industry: 'Software Development',
    employee_count: 120,
    size_band: '51-200',
    hq_country_code: 'US',
    hq_city: 'Austin',
    description: 'Analytics software for mid-size retailers.',
    company_type: 'Privately Held',
    founded_year: 2015,
    tech_stack: ['Snowflake', 'React'],
    person_id: 'sample-person',
    first_name: 'Ada',
    last_name: 'Example',
    title: 'Chief Technology Officer',
    persona: 'Chief Technology Officer',
    person_linkedin_url: 'https://www.linkedin.com/in/ada-example',
    email: null,
    phone: '+1 512 555 0100',
    location: 'Austin, Texas, United States',
    city: 'Austin',
    country_code: 'US',
    subject_key: 'person:sample-person',
  };
}

/** A replay sends the stored lead with `signal.is_replay` added; every other send, the stored bytes as is. */
function webhookBody(kind: string, payload: string): string {
  return kind === 'replay' ? replayBody(payload) : payload;
}

/** What one send (a webhook, or a sequencer or CRM push) means for its delivery. */
function outcomeOf(result: SendResult | PushResult): AttemptOutcome {
  if (result.outcome === 'ok') return { outcome: 'delivered', statusCode: result.statusCode };
  if (result.outcome === 'permanent') return { outcome: 'permanent', statusCode: result.statusCode, error: result.error };
  return { outcome: 'retry', statusCode: result.statusCode, error: result.error, ...(result.retryAfterMs !== undefined ? { retryAfterMs: result.retryAfterMs } : {}) };
}
