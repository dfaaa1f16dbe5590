import type { Config } from '../../config';
import { OutboundHttpError } from '../../providers/outbound-error';
import { ConnectionBroken, type CrmConnections } from '../crm/connections';
import { isCrmProvider } from '../crm/vendors';
import type { Integrations } from '../integrations';
import type { SecretBox } from '../../crypto/secret-box';
import { destinationOf } from '../../destinations/registry';
import { NotSendable, type DestinationPush, type PushTools } from '../../destinations/kit/destination';
import { pushResultOf, type PushResult } from '../../destinations/kit/push-result';

export type { DestinationRoute, DestinationPush } from '../../destinations/kit/destination';
export type { PushResult } from '../../destinations/kit/push-result';

/**
 * One attempt of a lead to a destination (a sequencer, a CRM, Slack, ...: src/destinations),
 * classified exactly as a webhook answer is (contract section 6). Every attempt is recorded by
 * the delivery, even one that was refused before any call, so the attempts list explains every
 * failed delivery.
 */
export class DestinationSender {
  /** What every push may use, built once: the account's connected tools and the settings. */
  private readonly tools: PushTools;

  constructor(
    integrations: Integrations,
    crmConnections: CrmConnections,
    private readonly config: Pick<
      Config,
      'HUBSPOT_API_URL' | 'GOOGLE_SHEETS_API_URL' | 'WEBHOOK_TIMEOUT_MS' | 'SLACK_WEBHOOKS_URL' | 'PUBLIC_URL'
    >,
    /** Opens a destination's sealed values (Slack's webhook URL). */
    secrets: Pick<SecretBox, 'open'>,
  ) {
    this.tools = {
      config,
      secrets,
      sequencerApiKey: (accountId, tool, integrationId) => integrations.apiKeyFor(accountId, tool, integrationId),
      sequencer: (tool) => integrations.sequencer(tool),
      async crmAccess(accountId, provider, integrationId, after401) {
        if (!isCrmProvider(provider))
          throw new NotSendable(`not sent: ${provider} has no OAuth connection to push with`);
        try {
          return await crmConnections.accessFor(accountId, provider, integrationId, after401);
        } catch (err) {
          if (err instanceof ConnectionBroken) throw new NotSendable(err.message);
          throw err;
        }
      },
      sheetHeaderWritten: (connectionId, spreadsheetId, sheet) =>
        crmConnections.sheetHeaderWritten(connectionId, spreadsheetId, sheet),
      recordSheetHeader: (connectionId, spreadsheetId, sheet) =>
        crmConnections.recordSheetHeader(connectionId, spreadsheetId, sheet),
    };
  }

  /**
   * The key a destination's send pace is noted under (as a webhook endpoint's origin is), when
   * its vendor limits a whole endpoint (Slack's webhook); null for other routes.
   */
  paceKeyOf(route: string, target: string): string | null {
    return destinationOf(route)?.paceKeyOf?.(target, this.tools) ?? null;
  }

  /** One push, classified; the caller records the attempt with the delivery's new state. */
  async send(input: DestinationPush): Promise<PushResult> {
    const started = Date.now();
    return this.withinDeadline(this.push(input)).then(
      (): PushResult => ({ outcome: 'ok', statusCode: null, durationMs: Date.now() - started }),
      (err: unknown): PushResult => pushResultOf(err, Date.now() - started),
    );
  }

  private async push(input: DestinationPush): Promise<void> {
    const destination = destinationOf(input.route);
    if (!destination) throw new NotSendable(`not sent: unknown route ${input.route}`);
    await destination.push(input, this.tools);
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
