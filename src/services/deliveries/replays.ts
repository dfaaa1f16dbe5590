import { createHash } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { execute, firstRow, rows } from '../../db/sql';
import type { Config } from '../../config';
import { AppError, notFound, validationError } from '../../errors';
import {
  AccountIdKey,
  REPLAY_MAX_WAIT_MS,
  REPLAY_RETRY_INITIAL_MS,
  REPLAY_SENDS_PER_LEAD,
  SignalIdKey,
  deliveryTaskQueue,
  replayWorkflowId,
  replayWorkflowType,
  type ReplayCursor,
  type ReplayPage,
  type ReplayResult,
  type ReplayWorkflowInput,
} from '../../temporal/contract';
import type { Deliveries } from './deliveries';
import { backoffMs } from './backoff';

/** The replay's quick retries: 0.5 s, then 1 s. */
const REPLAY_BACKOFF = { initialMs: REPLAY_RETRY_INITIAL_MS, maxIntervalMs: 60_000 };

/** How long the replay request waits for its answer before saying the replay goes on without it. */
export const REPLAY_ANSWER_TIMEOUT_MS = 5 * 60_000;

export type ReplaySendResult =
  { outcome: 'sent' } | { outcome: 'failed' } | { outcome: 'retry'; delayMs: number; error: string };

/**
 * `POST /api/v1/signals/{id}/replay-webhook`: every lead the signal produced, sent again to
 * its webhook as new `replay` deliveries (new X-Webhook-Ids) with `signal.is_replay` true.
 * The sending is a workflow on the deliveries queue; the request waits for its result.
 */
export class WebhookReplays {
  constructor(
    private readonly db: DataSource,
    private readonly config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'WEBHOOK_TIMEOUT_MS'>,
    private readonly deliveries: Deliveries,
    private readonly temporal?: Client,
    private readonly answerTimeoutMs = REPLAY_ANSWER_TIMEOUT_MS,
  ) {}

  async replay(accountId: string, signalId: string): Promise<ReplayResult> {
    const signal = await firstRow<{ id: string; account_id: string; webhook_url: string | null }>(
      this.db,
      `SELECT id, account_id, webhook_url FROM signals WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
      [signalId, accountId],
    );
    if (!signal) throw notFound('Signal');
    if (!signal.webhook_url) {
      throw validationError([{ field: 'webhookUrl', message: 'the signal has no webhookUrl to replay its leads to' }]);
    }
    if (!this.temporal)
      throw new AppError(503, 'TEMPORAL_UNAVAILABLE', 'Workflows are not reachable from this process');
    const handle = await this.start(signalId, accountId);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timed out'>(
      (resolve) => (timer = setTimeout(() => resolve('timed out'), this.answerTimeoutMs)),
    );
    try {
      const result = await Promise.race([handle.result(), timedOut]);
      if (result === 'timed out') {
        throw new AppError(
          504,
          'REPLAY_STILL_RUNNING',
          `The replay takes longer than ${Math.round(this.answerTimeoutMs / 1000)} s; it goes on, and its deliveries (kind "replay") are listed under GET /api/v1/signals/${signalId}/deliveries`,
          { replayId: handle.workflowId },
        );
      }
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  /** `replay:{signalId}:{n}` with n the start time in ms; a same-millisecond twin takes the next n. */
  private async start(signalId: string, accountId: string) {
    const temporal = this.temporal as Client;
    for (let n = Date.now(); ; n++) {
      try {
        return await temporal.workflow.start<(input: ReplayWorkflowInput) => Promise<ReplayResult>>(
          replayWorkflowType,
          {
            workflowId: replayWorkflowId(signalId, n),
            taskQueue: deliveryTaskQueue(this.config),
            args: [{ signalId, timeoutMs: this.config.WEBHOOK_TIMEOUT_MS }],
            typedSearchAttributes: [
              { key: SignalIdKey, value: signalId },
              { key: AccountIdKey, value: accountId },
            ],
            staticSummary: `Replay of signal ${signalId}'s leads to its webhook`,
          },
        );
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    }
  }

  /**
   * The replay deliveries of the next page of the signal's leads (oldest first), to the
   * webhook saved now. Ids derive from (replay, lead), so a retried page makes no second row.
   * A signal deleted or left without a webhook meanwhile ends the replay.
   */
  async createPage(replayId: string, signalId: string, after: ReplayCursor | null, limit: number): Promise<ReplayPage> {
    const signal = await firstRow<{ account_id: string; webhook_url: string | null }>(
      this.db,
      `SELECT account_id, webhook_url FROM signals WHERE id = $1 AND deleted_at IS NULL`,
      [signalId],
    );
    if (!signal?.webhook_url) return { deliveryIds: [], next: null };
    const leads = await rows<{ id: string; created_at: string }>(
      this.db,
      `SELECT id, created_at::text AS created_at FROM leads
       WHERE signal_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
       ORDER BY created_at, id LIMIT $4`,
      [signalId, after?.afterCreatedAt ?? null, after?.afterLeadId ?? null, limit],
    );
    const deliveryIds = leads.map((lead) => replayDeliveryId(replayId, lead.id));
    if (leads.length > 0) {
      await execute(
        this.db,
        `INSERT INTO deliveries (id, lead_id, signal_id, account_id, route, target, kind)
         SELECT t.id, t.lead_id, $3, $4, 'webhook', $5, 'replay' FROM unnest($1::uuid[], $2::uuid[]) AS t(id, lead_id)
         ON CONFLICT (id) DO NOTHING`,
        [deliveryIds, leads.map((lead) => lead.id), signalId, signal.account_id, signal.webhook_url],
      );
    }
    const last = leads[leads.length - 1];
    return {
      deliveryIds,
      next: leads.length === limit && last ? { afterCreatedAt: last.created_at, afterLeadId: last.id } : null,
    };
  }

  /**
   * One try of a replay send, at the endpoint's pace. The row's attempt count bounds the sends
   * to a first attempt and two quick retries, whatever Temporal retries around it (a worker
   * crash, say). An endpoint throttled for longer than the replay can wait fails the send: the
   * client replays again later.
   */
  async send(deliveryId: string, wait: (ms: number) => Promise<void>): Promise<ReplaySendResult> {
    const result = await this.deliveries.attempt(deliveryId, {
      backoff: REPLAY_BACKOFF,
      maxWaitMs: REPLAY_MAX_WAIT_MS,
      wait,
    });
    switch (result.outcome) {
      case 'delivered':
        return { outcome: 'sent' };
      case 'settled':
        return { outcome: result.status === 'delivered' ? 'sent' : 'failed' };
      case 'permanent':
        return { outcome: 'failed' };
      case 'deferred':
        await this.deliveries.markFailed(
          deliveryId,
          `the endpoint is throttled for ${Math.ceil(result.retryInMs / 1000)} s more; not sent`,
        );
        return { outcome: 'failed' };
      case 'retry': {
        const row = await firstRow<{ attempts: number }>(this.db, `SELECT attempts FROM deliveries WHERE id = $1`, [
          deliveryId,
        ]);
        const attempts = row?.attempts ?? REPLAY_SENDS_PER_LEAD;
        if (attempts >= REPLAY_SENDS_PER_LEAD) {
          await this.deliveries.markFailed(deliveryId, `${result.error} (replay: ${attempts} attempts)`);
          return { outcome: 'failed' };
        }
        // Quick retries whatever the receiver's Retry-After: its 429 paces the endpoint, which the next send waits for.
        return { outcome: 'retry', delayMs: backoffMs(attempts, REPLAY_BACKOFF), error: result.error };
      }
    }
  }
}

/** A version-5-style UUID from (replay, lead): stable across retries, new for every replay. */
export function replayDeliveryId(replayId: string, leadId: string): string {
  const hash = createHash('sha1').update(`replay\n${replayId}\n${leadId}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
