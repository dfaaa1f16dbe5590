import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { execute, firstRow } from '../../db/sql';
import type { Config } from '../../config';
import { notFound, validationError } from '../../errors';
import type { ApiKeys } from '../api-keys';
import { assertWebhookTarget } from '../../destinations/webhook/webhook-targets';
import { buildLeadPayload } from '../leads/payload';
import type { WebhookSender } from '../../destinations/webhook/webhook-sender';
import { settleDelivery } from './deliveries';
import { sampleCandidate } from './sample-lead';

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
 * The specification's synchronous test of a signal's webhook: one made-up lead, sent once, its
 * delivery recorded like any other (kind `test`) so that it shows in the signal's deliveries.
 */
export class TestSends {
  constructor(
    private readonly db: DataSource,
    private readonly config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'>,
    private readonly apiKeys: Pick<ApiKeys, 'webhookSecret'>,
    private readonly sender: Pick<WebhookSender, 'send'>,
  ) {}

  /**
   * A sample lead of the signal's type, marked `is_test`, sent once (no retries) under a new
   * delivery id, to the saved webhook or to `url`.
   */
  async send(accountId: string, signalId: string, url?: string): Promise<TestWebhookResult> {
    const signal = await this.signalOf(accountId, signalId);
    if (url !== undefined) await assertWebhookTarget(url, this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS, 'url');
    const target = url ?? signal.webhook_url;
    if (!target) throw validationError([{ field: 'url', message: 'the signal has no webhookUrl; send a url to test' }]);
    const deliveryId = randomUUID();
    const payload = buildLeadPayload(
      randomUUID(),
      new Date(),
      {
        id: signal.id,
        name: signal.name,
        signalTypeId: signal.signal_type_id,
        getPhones: signal.config.getPhones === true,
      },
      sampleCandidate(signal.signal_type_id),
    );
    const payloadSent: Record<string, unknown> = { ...payload, signal: { ...payload.signal, is_test: true } };
    const secret = signal.api_key_id ? await this.apiKeys.webhookSecret(signal.api_key_id) : null;
    await execute(
      this.db,
      `INSERT INTO deliveries (id, lead_id, signal_id, account_id, route, target, kind, attempts) VALUES ($1, NULL, $2, $3, 'webhook', $4, 'test', 1)`,
      [deliveryId, signal.id, signal.account_id, target],
    );
    const sent = await this.sender.send({
      deliveryId,
      attempt: 1,
      url: target,
      body: JSON.stringify(payloadSent),
      secret,
    });
    await settleDelivery(
      this.db,
      deliveryId,
      sent.outcome === 'ok' ? 'delivered' : 'failed',
      sent.statusCode,
      sent.outcome === 'ok' ? null : sent.error,
    );
    return { success: sent.outcome === 'ok', statusCode: sent.statusCode, payloadSent, signed: secret !== null };
  }

  private async signalOf(accountId: string, signalId: string): Promise<SignalRow> {
    const signal = await firstRow<SignalRow>(
      this.db,
      `SELECT id, account_id, api_key_id, name, signal_type_id, webhook_url, config FROM signals
       WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
      [signalId, accountId],
    );
    if (!signal) throw notFound('Signal');
    return signal;
  }
}
