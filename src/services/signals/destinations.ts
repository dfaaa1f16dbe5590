import { z } from 'zod';
import { CRM_PROVIDERS } from '../crm/connections';
import { slackWebhookUrlProblem } from '../../providers/slack/webhook-url';

export const SEQUENCER_PROVIDERS = ['lemlist', 'instantly', 'smartlead'] as const;

const connectionId = z.uuid().meta({
  description: 'Which connection of the tool (GET /api/v1/integrations); may be left out when the account has one',
});
const crmDestination = z.strictObject({ enabled: z.boolean(), integrationId: connectionId.optional() });
/** Google Sheets also needs the spreadsheet (the id in its URL) and the sheet (tab) a row per lead goes to. */
const sheetsDestination = z.strictObject({
  enabled: z.boolean(),
  integrationId: connectionId.optional(),
  spreadsheetId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{10,200}$/, 'the id in the spreadsheet URL, between /d/ and /edit')
    .meta({ description: 'The id in the spreadsheet URL: docs.google.com/spreadsheets/d/{spreadsheetId}/edit' }),
  sheetName: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^!'[\]*?:/\\]+$/, "a sheet name without ! ' [ ] * ? : / or \\")
    .default('Leads')
    .meta({ description: 'The sheet (tab) to append to; its first row gets our header once' }),
});
const CRMS = CRM_PROVIDERS.filter((p) => p !== 'google-sheets');
const sequencerDestination = z.strictObject({
  campaignId: z.string().trim().min(1).max(255),
  integrationId: z.string().trim().min(1).max(255).optional(),
});
/**
 * A Slack channel's incoming webhook. Stored sealed, answered masked; `webhookUrl` may be left
 * out to switch a stored one on or off.
 */
const slackDestination = z.strictObject({
  enabled: z.boolean(),
  webhookUrl: z
    .string()
    .trim()
    .max(500)
    .superRefine((value, ctx) => {
      const problem = slackWebhookUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .meta({
      description:
        'The Webhook URL Slack shows for an incoming webhook (https://hooks.slack.com/services/...); answered masked',
      example: 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
    }),
});

/** One key per destination kind; `null` removes a destination. */
export const destinationsPatch = z.strictObject({
  ...(Object.fromEntries(CRMS.map((p) => [p, crmDestination.nullable().optional()])) as Record<
    Exclude<(typeof CRM_PROVIDERS)[number], 'google-sheets'>,
    z.ZodOptional<z.ZodNullable<typeof crmDestination>>
  >),
  'google-sheets': sheetsDestination.nullable().optional(),
  ...(Object.fromEntries(SEQUENCER_PROVIDERS.map((p) => [p, sequencerDestination.nullable().optional()])) as Record<
    (typeof SEQUENCER_PROVIDERS)[number],
    z.ZodOptional<z.ZodNullable<typeof sequencerDestination>>
  >),
  slack: slackDestination.nullable().optional(),
});
export type DestinationsPatch = z.output<typeof destinationsPatch>;
export type CrmDestination = z.output<typeof crmDestination>;
export type SheetsDestination = z.output<typeof sheetsDestination>;
export type SequencerDestination = z.output<typeof sequencerDestination>;
export type SlackDestination = z.output<typeof slackDestination>;

/** A Slack destination as the signal row keeps it: the URL sealed, and its masked form to show. */
export interface StoredSlackDestination {
  enabled: boolean;
  webhookUrl: string;
  webhookUrlSealed: string;
}

/** The stored destinations as the API answers them: sealed values never leave. */
export function publicDestinations(destinations: Record<string, unknown>): Record<string, unknown> {
  const slack = destinations.slack as Partial<StoredSlackDestination> | undefined;
  if (!slack) return destinations;
  return { ...destinations, slack: { enabled: slack.enabled === true, webhookUrl: slack.webhookUrl ?? null } };
}

export function mergeDestinations(current: Record<string, unknown>, patch: DestinationsPatch): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    // A Slack patch without a new URL keeps the stored one (it is only ever shown masked).
    else if (key === 'slack' && !('webhookUrlSealed' in value))
      merged[key] = { ...(current.slack as object), ...value };
    else merged[key] = value;
  }
  return merged;
}
