import type { z } from 'zod';
import type { Config } from '../../config';
import type { SecretBox } from '../../crypto/secret-box';
import type { Sequencer, SequencerName } from '../../providers/sequencers';

/** A destination route of a lead, as the delivery row records it. */
export interface DestinationRoute {
  /** The destination's kind: `lemlist`, `hubspot`, ... */
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

/** Nothing a retry could change (no e-mail, no adapter, not connected): fails the delivery at once. */
export class NotSendable extends Error {}

/** What a CRM push needs: the current access token and the connection's API host (null: the vendor's fixed one). */
export interface CrmAccessToken {
  connectionId: string;
  accessToken: string;
  apiBaseUrl: string | null;
}

/** The service settings a push reads. */
export type DestinationConfig = Pick<
  Config,
  'HUBSPOT_API_URL' | 'GOOGLE_SHEETS_API_URL' | 'WEBHOOK_TIMEOUT_MS' | 'SLACK_WEBHOOKS_URL' | 'PUBLIC_URL'
>;

/**
 * What a push may use of the account's connected tools. The delivery service builds it once
 * from the integrations and CRM connections, so a destination never reaches into the services.
 */
export interface PushTools {
  config: DestinationConfig;
  /** Opens a sealed value a destination stored (Slack's webhook URL). */
  secrets: Pick<SecretBox, 'open'>;
  /** The key of the connected sequencer account the destination names (or the only one); null when none fits. */
  sequencerApiKey(accountId: string, tool: SequencerName, integrationId: string | null): Promise<string | null>;
  sequencer(tool: SequencerName): Sequencer;
  /** A token to push with; `after401` forces a refresh. A broken connection throws NotSendable. */
  crmAccess(
    accountId: string,
    /** A tool connected by OAuth (src/services/crm/vendors). */
    provider: string,
    integrationId: string | null,
    after401: boolean,
  ): Promise<CrmAccessToken>;
  sheetHeaderWritten(connectionId: string, spreadsheetId: string, sheet: string): Promise<boolean>;
  recordSheetHeader(connectionId: string, spreadsheetId: string, sheet: string): Promise<void>;
}

/** What saving a destination may use: the account's connections, and the service's key to seal with. */
export interface SettingsTools {
  accountId: string;
  seal(text: string): string;
  /** The CRM connection a destination names, or the account's only one (else a 4xx for `field`). */
  resolveCrmConnection(provider: string, integrationId: string | undefined, field: string): Promise<string>;
  /** The sequencer account and a campaign that exists there (else a 4xx). */
  resolveSequencerDestination(
    tool: SequencerName,
    destination: { campaignId: string; integrationId?: string | undefined },
  ): Promise<{ campaignId: string; integrationId: string }>;
}

/** One input of a destination's dashboard form; its `id` is also its form field name. */
export interface FormField {
  id: string;
  label: string;
  input: 'text' | 'url' | 'checkbox';
  /** The value shown (text), or whether it is checked, from the stored settings. */
  value(stored: Record<string, unknown>): string | boolean;
  /** Beside the label, from the stored settings (a secret's masked form). */
  hint?(stored: Record<string, unknown>): string | undefined;
  /** Never shown back: the input starts empty, and browsers do not remember it. */
  secret?: boolean;
}

/**
 * How the dashboard's destinations form offers a destination: `connection` is a choice among the
 * account's connections of the tool (a chosen one enables it), with the tool's own fields beside;
 * `section` is a fieldset of its own, always shown. None: set through the API only.
 */
export type DashboardForm =
  { kind: 'connection'; fields?: FormField[] } | { kind: 'section'; legend: string; fields: FormField[] };

/**
 * One destination: everything about it in one module (src/destinations/<kind>/), listed once
 * in src/destinations/registry.ts. `Settings` is what PATCH accepts under `destinations.<kind>`.
 */
export interface Destination<Settings = any> {
  /** The key under a signal's `destinations` and the route name its deliveries carry. */
  kind: string;
  /** What PATCH accepts under `destinations.<kind>` (null, always accepted, removes it). */
  settings: z.ZodType<Settings>;
  /** The settings as they are stored: connections resolved, secrets sealed. Default: as sent. */
  stored?(settings: Settings, tools: SettingsTools): Promise<unknown> | unknown;
  /** A stored value merged with the next one; default: the next replaces it. */
  merged?(current: unknown, next: Record<string, unknown>): unknown;
  /** Refuses (validation error) a stored value that cannot be delivered to; checked after merging. */
  assertDeliverable?(stored: unknown): void;
  /** The stored value as answers show it (secrets masked); default: as stored. */
  answered?(stored: unknown): unknown;
  /** The route a new lead gets from the stored value; null while it is off or incomplete. */
  routeOf(stored: unknown): Omit<DestinationRoute, 'route'> | null;
  /** The key a send pace is noted under, shared by the routes one vendor limit covers; null: unpaced. */
  paceKeyOf?(target: string, tools: PushTools): string | null;
  /** One push of a lead; throws OutboundHttpError (classified) or NotSendable. */
  push(input: DestinationPush, tools: PushTools): Promise<void>;
  /** The dashboard's form for it; none: set through the API. */
  dashboard?: DashboardForm;
  /** The dashboard form's fields as the `destinations.<kind>` patch; undefined: the form left it alone. */
  settingsFromForm?(form: URLSearchParams, stored: unknown): unknown;
}

/** A stored value's fields, or an empty record for anything that is not an object. */
export function fieldsOf(stored: unknown): Record<string, unknown> {
  return stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
}
