import { z } from 'zod';
import type { CrmLead } from '../../providers/crm/hubspot';
import type { VendorEndpoint } from '../../providers/vendor-http';
import { OutboundHttpError } from '../../providers/outbound-error';
import {
  fieldsOf,
  NotSendable,
  type CrmAccessToken,
  type Destination,
  type DestinationPush,
  type FormField,
  type PushTools,
} from './destination';
import { connectionId } from './connection-id';
import { crmLeadFrom } from './route-payloads';

/** What a CRM destination stores: on or off, through one connection of the tool. */
export const crmSettings = z.strictObject({ enabled: z.boolean(), integrationId: connectionId.optional() });
export type CrmSettings = z.output<typeof crmSettings>;

export interface CrmDestinationParts<S extends CrmSettings> {
  settings: z.ZodType<S>;
  /** The delivery's target; default: the tool's name. */
  targetOf?(stored: Record<string, unknown>): string;
  /** The dashboard form's fields beside the connection choice, and their values as settings. */
  formFields?: FormField[];
  settingsOfFields?(form: URLSearchParams): Record<string, unknown>;
  /** One push with a token; called again with a fresh one after a 401. */
  push(access: CrmAccessToken, lead: CrmLead, input: DestinationPush, tools: PushTools): Promise<void>;
}

/**
 * A tool connected by OAuth in the dashboard (HubSpot, Salesforce, Pipedrive, Google Sheets):
 * enabled with one of the account's connections, each lead pushed as a CRM record with a token
 * the connection refreshes; a 401 may mean a token revoked or expired early, so it is refreshed
 * once and the push tried again.
 */
export function crmDestination<S extends CrmSettings>(provider: string, parts: CrmDestinationParts<S>): Destination<S> {
  const accessFor = (input: DestinationPush, tools: PushTools, after401: boolean) =>
    tools.crmAccess(input.accountId, provider, input.integrationId, after401);
  return {
    kind: provider,
    settings: parts.settings,
    // Stored with the connection it resolved to (named, or the only one).
    async stored(settings, tools) {
      if (!settings.enabled) return settings;
      const integrationId = await tools.resolveCrmConnection(
        provider,
        settings.integrationId,
        `destinations.${provider}.integrationId`,
      );
      return { ...settings, integrationId };
    },
    routeOf(stored) {
      const fields = fieldsOf(stored);
      if (fields.enabled !== true) return null;
      return {
        target: parts.targetOf ? parts.targetOf(fields) : provider,
        integrationId: typeof fields.integrationId === 'string' ? fields.integrationId : null,
      };
    },
    async push(input, tools) {
      const mapped = crmLeadFrom(input.payload, input.leadId, provider);
      if (!mapped.ok) throw new NotSendable(mapped.reason);
      try {
        await parts.push(await accessFor(input, tools, false), mapped.lead, input, tools);
      } catch (err) {
        if (!(err instanceof OutboundHttpError && err.status === 401)) throw err;
        await parts.push(await accessFor(input, tools, true), mapped.lead, input, tools);
      }
    },
    dashboard: { kind: 'connection', ...(parts.formFields ? { fields: parts.formFields } : {}) },
    // A chosen connection enables the tool; "off" removes it.
    settingsFromForm(form, stored) {
      if (!form.has(`dest-${provider}`)) return undefined;
      const integrationId = (form.get(`dest-${provider}`) ?? '').trim();
      if (!integrationId) return stored !== undefined ? null : undefined;
      return { enabled: true, integrationId, ...parts.settingsOfFields?.(form) };
    },
  };
}

/** The vendor's address for one push; a connection that names none cannot push. */
export function crmEndpoint(provider: string, baseUrl: string | null, tools: PushTools): VendorEndpoint {
  if (!baseUrl) throw new NotSendable(`not sent: the ${provider} connection names no API address; reconnect it`);
  return { baseUrl, timeoutMs: tools.config.WEBHOOK_TIMEOUT_MS };
}
