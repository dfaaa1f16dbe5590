import { z } from 'zod';
import { SIGNAL_STATUSES } from '../../src/db/entities/signal';
import { companyEntries, companyEntry } from '../../src/signal-types/kit/config';
import { destinationsPatchSchema } from '../../src/destinations/settings';
import { crmExclusionsSetting } from '../../src/services/signals/crm-exclusions';
import { SIGNAL_TYPES, SIGNAL_TYPE_IDS, type SignalType } from '../../src/signal-types/registry';
import type { CreateSignalInput } from '../../src/services/signals/signals';
import { webhookUrlSchema } from '../../src/destinations/webhook/webhook-targets';
import { pageEnvelope, pageQuery } from './common';

const name = z.string().trim().min(1).max(255);
const status = z.enum(SIGNAL_STATUSES).meta({ description: 'draft (default), active or paused' });
const webhookUrl = webhookUrlSchema.nullable().optional().meta({
  description: 'Where each lead is POSTed, signed; optional (read by polling or routed to destinations otherwise)',
});
const dailyLeadLimit = z.number().int().min(1).max(999_999);
export const duplicateHandling = z
  .string()
  .regex(/^(refuse|allow|[1-9]\d{0,3}d)$/, 'must be "refuse", "allow" or "<X>d" such as "30d"')
  .meta({ description: 'refuse, allow, or <X>d to accept a repeated subject again after X days' });

/** The create body's fields besides `config`, the same for every type. */
export const creationFields = {
  name,
  webhookUrl,
  dailyLeadLimit: dailyLeadLimit.default(100),
  duplicateHandling: duplicateHandling.optional(),
  status: status.default('draft'),
};

/** Each registered type's create body, made once (its component id may be registered only once). */
const createBodies = new Map(
  SIGNAL_TYPES.map((type) => [
    type.signalTypeId,
    z
      .strictObject({ ...creationFields, config: type.configSchema })
      .meta({ id: `Create${type.operationName}Signal` }) as z.ZodType<CreateSignalInput>,
  ]),
);

/** The REST create body of a type: the route, create_signal and the dashboard all check with it. */
export function createBodyOf(type: Pick<SignalType, 'signalTypeId'>): z.ZodType<CreateSignalInput> {
  const body = createBodies.get(type.signalTypeId);
  if (!body) throw new Error(`unknown signal type ${type.signalTypeId}`);
  return body;
}

/** A cost preview: the create body of a type, named by `signalTypeId`; `name` may be left out. */
export const previewSignalBody = z
  .strictObject({
    signalTypeId: z.enum(SIGNAL_TYPE_IDS).meta({ description: 'The type whose create body follows' }),
    ...creationFields,
    name: name.optional(),
    config: z.record(z.string(), z.unknown()).meta({
      description: "The type's config, as its create operation takes it (checked the same way)",
    }),
  })
  .meta({ id: 'PreviewSignal' });

export const signalPreviewSchema = z
  .object({
    windowDays: z.number().int(),
    matchingEvents: z.number().int(),
    expectedLeads: z.number().int().meta({
      description:
        "Leads the window's events make that the daily cap lets through, day by day: the funnel's last `remaining`",
    }),
    heldByCap: z
      .number()
      .int()
      .meta({ description: "Leads the cap still held back at the window's end; later days produce them" }),
    expectedLeadsPerDay: z.number(),
    expectedCreditsPerDay: z.number(),
    capLimited: z.boolean(),
    funnel: z.array(z.object({ filter: z.string(), removed: z.number().int(), remaining: z.number().int() })),
    applied: z.record(z.string(), z.unknown()),
    warnings: z.array(z.looseObject({ code: z.string(), field: z.string(), message: z.string() })),
  })
  .meta({ id: 'SignalPreview' });

export const updateSignalBody = z
  .strictObject({
    name: name.optional(),
    status: status.optional(),
    config: z.record(z.string(), z.unknown()).optional().meta({
      description:
        'Merged into the stored config: send only changed fields; an empty list clears a list; null removes a field',
    }),
    webhookUrl,
    destinations: destinationsPatchSchema().optional(),
    crmExclusions: crmExclusionsSetting.optional(),
    dailyLeadLimit: dailyLeadLimit.optional(),
    duplicateHandling: duplicateHandling.optional(),
  })
  .meta({ id: 'UpdateSignal' });

export const signalListQuery = pageQuery.extend({
  status: status.optional(),
  signalTypeId: z.enum(SIGNAL_TYPE_IDS).optional(),
  createdByThisKey: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

const warning = z
  .object({
    code: z.string(),
    field: z.string(),
    message: z.string(),
    severity: z.enum(['info', 'warning']),
    values: z.array(z.string()),
  })
  .meta({ id: 'SignalWarning' });

export const importResult = z
  .object({ watched: z.number().int(), rejected: z.number().int(), alreadyWatched: z.number().int() })
  .meta({ id: 'WatchlistImportResult' });

export const signalResourceSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    status,
    signalTypeId: z.string(),
    webhookUrl: z.string().nullable(),
    config: z.record(z.string(), z.unknown()).nullable(),
    destinations: z.record(z.string(), z.unknown()).meta({
      description:
        "Where each lead also goes, as set by PATCH; a Slack destination's webhookUrl is answered masked (https://hooks.slack.com/services/T0123…/…)",
    }),
    crmExclusions: crmExclusionsSetting.optional(),
    dailyLeadLimit: z.number().int(),
    leadsToday: z.number().int(),
    leadsTotal: z.number().int(),
    duplicateHandling: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastLeadAt: z.string().nullable(),
    applied: z.record(z.string(), z.unknown()),
    warnings: z.array(warning),
    watchlist: importResult.optional(),
  })
  .meta({ id: 'Signal' });

export const signalListSchema = z.object({ signals: z.array(signalResourceSchema), ...pageEnvelope });

export const watchedCompaniesBody = z.strictObject({ companies: companyEntries.min(1) });
export const removeWatchedCompaniesBody = z
  .strictObject({
    ids: z.array(z.uuid()).max(10_000).optional(),
    companies: z.array(companyEntry).max(10_000).optional(),
  })
  .refine((b) => (b.ids?.length ?? 0) + (b.companies?.length ?? 0) > 0, 'give ids or companies to remove');

export const signalActivitySchema = z
  .object({
    signalId: z.string().uuid(),
    status: z.enum(['draft', 'active', 'paused']),
    source: z.enum(['workflow', 'database']).meta({
      description:
        'workflow: the live fields come from the signal workflow; database: it did not answer in time, so they are null',
    }),
    workflowStatus: z.enum(['active', 'paused', 'credits_exhausted']).nullable(),
    evaluating: z.boolean().nullable(),
    lastEvaluatedAt: z.string().nullable(),
    nextEvaluationAt: z.string().nullable(),
    leadsStartedThisEvaluation: z.number().int().nullable(),
    leadsBeingDelivered: z
      .number()
      .int()
      .meta({ description: 'Leads with a route still being sent or waiting for a retry' }),
    leadsToday: z.number().int(),
    leadsTotal: z.number().int(),
  })
  .meta({
    id: 'SignalActivity',
    description:
      'What the signal is doing now, asked of its workflow; PostgreSQL alone when Temporal cannot answer in time',
  });
