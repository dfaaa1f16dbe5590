import { createHash } from 'node:crypto';
import type { Config } from '../../config';
import { HubSpotCrm, type CrmLead } from '../../providers/crm/hubspot';
import { SalesforceCrm } from '../../providers/crm/salesforce';
import { PipedriveCrm } from '../../providers/crm/pipedrive';
import { GoogleSheets } from '../../providers/crm/google-sheets';
import { OutboundHttpError } from '../../providers/outbound-error';
import { isSequencerName } from '../../providers/sequencers';
import { ConnectionBroken, type CrmAccess, type CrmConnections } from '../crm/connections';
import { isCrmProvider, type CrmProvider } from '../crm/vendors';
import type { Integrations } from '../integrations';
import { crmLeadFrom, sequencerLeadFrom, slackLeadFrom } from './route-payloads';
import type { SecretBox } from '../../crypto/secret-box';
import { SlackWebhooks } from '../../providers/slack/incoming-webhook';
import { leadMessage } from '../../providers/slack/lead-message';

/** A destination route of a lead, as the delivery row records it. */
export interface DestinationRoute {
  /** The tool's name: `lemlist`, `hubspot`, ... */
  route: string;
  /**
   * The campaign id for a sequencer, the CRM's name for a CRM, `{spreadsheetId}!{sheet}` for
   * Google Sheets, the sealed webhook URL for Slack (the URL is a credential).
   */
  target: string;
  /** The connected account of the tool the destination names; null: the account's only one. */
  integrationId: string | null;
}

export interface DestinationPush {
  deliveryId: string;
  /** 1 for the first attempt; recorded with the attempt. */
  attempt: number;
  accountId: string;
  leadId: string;
  /** The lead's signal: Slack links to the lead on its page. */
  signalId: string;
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

/** The routes a signal's stored `destinations` give each new lead: enabled CRMs and Slack, and each sequencer with a campaign. */
export function destinationRoutesOf(destinations: Record<string, unknown> | null | undefined): DestinationRoute[] {
  const routes: DestinationRoute[] = [];
  for (const [route, value] of Object.entries(destinations ?? {})) {
    const destination = value as {
      enabled?: unknown;
      campaignId?: unknown;
      integrationId?: unknown;
      spreadsheetId?: unknown;
      sheetName?: unknown;
      webhookUrlSealed?: unknown;
    } | null;
    const integrationId = typeof destination?.integrationId === 'string' ? destination.integrationId : null;
    if (isCrmProvider(route) && destination?.enabled === true) {
      const target =
        route === 'google-sheets' ? `${String(destination.spreadsheetId)}!${String(destination.sheetName)}` : route;
      routes.push({ route, target, integrationId });
    } else if (isSequencerName(route) && typeof destination?.campaignId === 'string' && destination.campaignId) {
      routes.push({ route, target: destination.campaignId, integrationId });
    } else if (route === 'slack' && destination?.enabled === true && typeof destination.webhookUrlSealed === 'string') {
      routes.push({ route, target: destination.webhookUrlSealed, integrationId: null });
    }
  }
  return routes;
}

/**
 * One attempt of a lead to a sequencer, a CRM or Slack, through the vendor adapter, classified exactly
 * as a webhook answer is (contract section 6): 429 waits the vendor's Retry-After, 5xx and
 * time-outs back off, other 4xx are permanent. Every attempt is recorded by the delivery, even
 * one that was refused before any call, so the attempts list explains every failed delivery.
 */
export class DestinationSender {
  constructor(
    private readonly integrations: Integrations,
    private readonly crmConnections: CrmConnections,
    private readonly config: Pick<
      Config,
      'HUBSPOT_API_URL' | 'GOOGLE_SHEETS_API_URL' | 'WEBHOOK_TIMEOUT_MS' | 'SLACK_WEBHOOKS_URL' | 'PUBLIC_URL'
    >,
    /** Opens a Slack destination's sealed webhook URL. */
    private readonly secrets: Pick<SecretBox, 'open'>,
  ) {}

  /**
   * The key a Slack webhook's send pace is noted under (as a webhook endpoint's origin is):
   * Slack allows about one message a second per webhook, so one lead's 429 holds back the
   * webhook's other leads too. A digest of the URL, never the URL. Null for other routes.
   */
  paceKeyOf(route: string, target: string): string | null {
    if (route !== 'slack') return null;
    try {
      return `slack:${createHash('sha256').update(this.secrets.open(target)).digest('hex').slice(0, 32)}`;
    } catch {
      return null;
    }
  }

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
    if (isCrmProvider(route)) {
      const mapped = crmLeadFrom(input.payload, input.leadId, route);
      if (!mapped.ok) throw new NotSendable(mapped.reason);
      // A 401 may mean a token revoked or expired early: refresh once and push again.
      try {
        await this.pushToCrm(route, await this.crmAccess(input, route, false), mapped.lead, input);
      } catch (err) {
        if (!(err instanceof OutboundHttpError && err.status === 401)) throw err;
        await this.pushToCrm(route, await this.crmAccess(input, route, true), mapped.lead, input);
      }
      return;
    }
    if (route === 'slack') {
      let webhookUrl: string;
      try {
        webhookUrl = this.secrets.open(input.target);
      } catch {
        throw new NotSendable(
          'not sent: the stored Slack webhook URL cannot be opened (SECRETS_KEY changed?); save it again',
        );
      }
      const lead = slackLeadFrom(input.payload, {
        leadId: input.leadId,
        signalId: input.signalId,
        publicUrl: this.config.PUBLIC_URL,
      });
      const slack = new SlackWebhooks({
        baseUrl: this.config.SLACK_WEBHOOKS_URL,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      });
      await slack.post(webhookUrl, leadMessage(lead));
      return;
    }
    throw new NotSendable(`not sent: unknown route ${route}`);
  }

  private async crmAccess(input: DestinationPush, provider: CrmProvider, after401: boolean): Promise<CrmAccess> {
    try {
      return await this.crmConnections.accessFor(input.accountId, provider, input.integrationId, after401);
    } catch (err) {
      if (err instanceof ConnectionBroken) throw new NotSendable(err.message);
      throw err;
    }
  }

  private async pushToCrm(
    provider: CrmProvider,
    access: CrmAccess,
    lead: CrmLead,
    input: DestinationPush,
  ): Promise<void> {
    const at = (baseUrl: string | null) => {
      if (!baseUrl) throw new NotSendable(`not sent: the ${provider} connection names no API address; reconnect it`);
      return { baseUrl, timeoutMs: this.config.WEBHOOK_TIMEOUT_MS };
    };
    switch (provider) {
      case 'hubspot':
        await new HubSpotCrm(at(this.config.HUBSPOT_API_URL)).pushLead(access.accessToken, lead);
        return;
      case 'salesforce':
        await new SalesforceCrm(at(access.apiBaseUrl)).pushLead(access.accessToken, lead);
        return;
      case 'pipedrive':
        await new PipedriveCrm(at(access.apiBaseUrl)).pushLead(access.accessToken, lead);
        return;
      case 'google-sheets': {
        const sheets = new GoogleSheets(at(this.config.GOOGLE_SHEETS_API_URL));
        const [spreadsheetId, sheet] = splitSheetTarget(input.target);
        if (!(await this.crmConnections.sheetHeaderWritten(access.connectionId, spreadsheetId, sheet))) {
          await sheets.writeHeader(access.accessToken, spreadsheetId, sheet);
          await this.crmConnections.recordSheetHeader(access.connectionId, spreadsheetId, sheet);
        }
        // An append is not idempotent: after an attempt that may have landed, look for the lead's row first.
        if (input.attempt > 1 && (await sheets.hasLead(access.accessToken, spreadsheetId, sheet, lead.leadId))) return;
        await sheets.appendLead(access.accessToken, spreadsheetId, sheet, lead);
        return;
      }
    }
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

/** `{spreadsheetId}!{sheet}`: spreadsheet ids never hold a `!`. */
function splitSheetTarget(target: string): [string, string] {
  const at = target.indexOf('!');
  return [target.slice(0, at), target.slice(at + 1)];
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
