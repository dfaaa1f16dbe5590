import type { Config } from '../../config';
import { HubSpotCrm } from '../../providers/crm/hubspot';
import { OutboundHttpError } from '../../providers/outbound-error';
import { isSequencerName } from '../../providers/sequencers';
import { CRM_PROVIDERS, type CrmConnections, type CrmProvider } from '../crm-connections';
import type { Integrations } from '../integrations';
import { crmLeadFrom, sequencerLeadFrom } from './route-payloads';

/** A destination route of a lead, as the delivery row records it. */
export interface DestinationRoute {
  /** The tool's name: `lemlist`, `hubspot`, ... */
  route: string;
  /** The campaign id for a sequencer, the CRM's name for a CRM. */
  target: string;
  /** The connected sequencer account; null for CRMs (one connection per CRM and account). */
  integrationId: string | null;
}

export interface DestinationPush {
  deliveryId: string;
  /** 1 for the first attempt; recorded with the attempt. */
  attempt: number;
  accountId: string;
  leadId: string;
  route: string;
  target: string;
  integrationId: string | null;
  /** The stored lead payload text. */
  payload: string;
}

/** The webhook sender's classification; `statusCode` is the vendor's failing status, null on success (several calls made it). */
export type PushResult =
  | { outcome: 'ok'; statusCode: null; durationMs: number }
  | { outcome: 'retry'; statusCode: number | null; retryAfterMs?: number; error: string; durationMs: number }
  | { outcome: 'permanent'; statusCode: number | null; error: string; durationMs: number };

/** Nothing a retry could change (no e-mail, no adapter, not connected): fails the delivery at once. */
class NotSendable extends Error {}

/** The routes a signal's stored `destinations` give each new lead: enabled CRMs, and each sequencer with a campaign. */
export function destinationRoutesOf(destinations: Record<string, unknown> | null | undefined): DestinationRoute[] {
  const routes: DestinationRoute[] = [];
  for (const [route, value] of Object.entries(destinations ?? {})) {
    const destination = value as { enabled?: unknown; campaignId?: unknown; integrationId?: unknown } | null;
    if ((CRM_PROVIDERS as readonly string[]).includes(route) && destination?.enabled === true) {
      routes.push({ route, target: route, integrationId: null });
    } else if (isSequencerName(route) && typeof destination?.campaignId === 'string' && destination.campaignId) {
      const integrationId = typeof destination.integrationId === 'string' ? destination.integrationId : null;
      routes.push({ route, target: destination.campaignId, integrationId });
    }
  }
  return routes;
}

/**
 * One attempt of a lead to a sequencer or a CRM, through the vendor adapter, classified exactly
 * as a webhook answer is (contract section 6): 429 waits the vendor's Retry-After, 5xx and
 * time-outs back off, other 4xx are permanent. Every attempt is recorded by the delivery, even
 * one that was refused before any call, so the attempts list explains every failed delivery.
 */
export class DestinationSender {
  constructor(
    private readonly integrations: Integrations,
    private readonly crmConnections: CrmConnections,
    private readonly config: Pick<Config, 'HUBSPOT_API_URL' | 'WEBHOOK_TIMEOUT_MS'>,
  ) {}

  /** One push, classified; the caller records the attempt with the delivery's new state. */
  async send(input: DestinationPush): Promise<PushResult> {
    const started = Date.now();
    return this.withinDeadline(this.push(input)).then(
      (): PushResult => ({ outcome: 'ok', statusCode: null, durationMs: Date.now() - started }),
      (err: unknown): PushResult => classify(err, Date.now() - started),
    );
  }

  private async push(input: DestinationPush): Promise<void> {
    const { route } = input;
    if (isSequencerName(route)) {
      const mapped = sequencerLeadFrom(input.payload, route);
      if (!mapped.ok) throw new NotSendable(mapped.reason);
      const apiKey = await this.integrations.apiKeyFor(input.accountId, route, input.integrationId);
      if (!apiKey) {
        throw new NotSendable(
          `not sent: no connected ${route} account fits this destination (disconnected, or several connected and none named by integrationId)`,
        );
      }
      await this.integrations.sequencer(route).addLead(apiKey, input.target, mapped.lead);
      return;
    }
    if ((CRM_PROVIDERS as readonly string[]).includes(route)) {
      if (route !== 'hubspot')
        throw new NotSendable(
          `not sent: there is no ${route} adapter yet; the lead stays readable through the leads endpoint`,
        );
      const mapped = crmLeadFrom(input.payload, input.leadId, route);
      if (!mapped.ok) throw new NotSendable(mapped.reason);
      const token = await this.crmConnections.accessToken(input.accountId, route as CrmProvider);
      if (!token)
        throw new NotSendable(`not sent: ${route} is not connected any more; connect it again in the dashboard`);
      await new HubSpotCrm({
        baseUrl: this.config.HUBSPOT_API_URL,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      }).pushLead(token, mapped.lead);
      return;
    }
    throw new NotSendable(`not sent: unknown route ${route}`);
  }

  /**
   * A CRM push is several calls, each with the attempt time-out; the whole attempt still ends
   * well inside the activity's start-to-close (time-out + 30 s), so its outcome is recorded.
   * A call left running after the deadline is harmless: pushes are upserts or deduplicated.
   */
  private withinDeadline(work: Promise<void>): Promise<void> {
    const limitMs = this.config.WEBHOOK_TIMEOUT_MS + 20_000;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new OutboundHttpError(`no answer within ${limitMs} ms`, { vendor: 'destination', permanent: false })),
        limitMs,
      );
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  }
}

function classify(err: unknown, durationMs: number): PushResult {
  if (err instanceof NotSendable) return { outcome: 'permanent', statusCode: null, error: err.message, durationMs };
  if (err instanceof OutboundHttpError) {
    const statusCode = err.status ?? null;
    if (err.permanent) return { outcome: 'permanent', statusCode, error: err.message, durationMs };
    return {
      outcome: 'retry',
      statusCode,
      error: err.message,
      durationMs,
      ...(err.retryAfterSeconds !== undefined ? { retryAfterMs: err.retryAfterSeconds * 1000 } : {}),
    };
  }
  // Our own failure (database, a bug): retried with back-off like an outage, never silently dropped.
  return { outcome: 'retry', statusCode: null, error: err instanceof Error ? err.message : String(err), durationMs };
}
