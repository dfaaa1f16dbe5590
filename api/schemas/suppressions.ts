import { z } from 'zod';
import { MAX_SUPPRESSIONS_PER_CALL, SUPPRESSION_KINDS, suppressionEntryInput } from '../../src/services/suppressions';
import { pageEnvelope, pageQuery } from './common';

const kind = z.enum(SUPPRESSION_KINDS).meta({
  description:
    '`email` (one person), `domain` (a company and every person of it, and emails at it) or `company_url` (a professional-network company page)',
});

/** The service's entry schema (one for JSON, CSV lines, the tool and the dashboard), described. */
export const suppressionEntry = suppressionEntryInput
  .extend({
    kind,
    value: suppressionEntryInput.shape.value.meta({
      description: 'Normalised as watchlist entries are (acme.com, a URL, an email)',
    }),
    signalId: suppressionEntryInput.shape.signalId.meta({
      description: 'Only this signal; absent or null for the whole account',
    }),
  })
  .meta({ id: 'SuppressionEntry' });

export const addSuppressionsBody = z.union([
  suppressionEntry,
  z.array(suppressionEntry).min(1).max(MAX_SUPPRESSIONS_PER_CALL),
]);

export const suppression = z
  .object({
    id: z.uuid(),
    kind,
    value: z.string(),
    note: z.string().nullable(),
    signalId: z.uuid().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Suppression' });

export const suppressionsAdded = z
  .object({
    added: z.array(suppression),
    duplicates: z.array(z.object({ index: z.number().int(), kind, value: z.string() })),
    rejected: z.array(z.object({ index: z.number().int(), message: z.string() })),
  })
  .meta({ id: 'SuppressionsAdded' });

export const suppressionsQuery = pageQuery.extend({
  kind: kind.optional(),
  signalId: z.uuid().optional(),
});

export const suppressionPage = z.object({ items: z.array(suppression), ...pageEnvelope });

export const suppressionImportQuery = z.object({
  signalId: z.uuid().optional().meta({ description: 'Every line for this signal only' }),
});

export const suppressionImportResult = z
  .object({
    accepted: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.number().int(),
    errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
  })
  .meta({ id: 'SuppressionImportResult' });
