import { z } from 'zod';
import { SIGNAL_TYPES, SIGNAL_TYPE_IDS, type SignalType } from '../../../src/signal-types/registry';
import { creationFields, signalListQuery } from '../../schemas/signals';
import { signalIdParam } from '../../routes/signals';

// The inputs and words the signal tools share.

/** "a, b and c" (or "a, b or c") */
const wordList = (words: string[], conjunction = 'and') =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}` : (words[0] ?? '');

/** "2 credits (job changes and hiring, +0.5 per email found) or 3 (account watchlist)": the types grouped by price. */
function pricesInWords(types: readonly SignalType[]): string {
  const groups = new Map<string, SignalType[]>();
  for (const type of types) {
    const key = `${type.creditsPerLead}/${type.creditsPerEmailFound}`;
    groups.set(key, [...(groups.get(key) ?? []), type]);
  }
  return [...groups.values()]
    .map(([first, ...others], i) => {
      const names = wordList([first!, ...others].map((t) => t.name.toLowerCase()));
      const email = first!.creditsPerEmailFound ? `, +${first!.creditsPerEmailFound} per email found` : '';
      return `${first!.creditsPerLead}${i === 0 ? ' credits' : ''} (${names}${email})`;
    })
    .join(' or ');
}

/** Lead prices, stated wherever a tool can start a signal producing (and so spending). */
export const LEAD_PRICES = `Leads cost ${pricesInWords(SIGNAL_TYPES)} whatever the event, charged once when each lead is produced; a draft signal costs nothing.`;
const TYPE_IDS_IN_WORDS = wordList(SIGNAL_TYPE_IDS, 'or');

/** The REST path parameter, described for the assistant. */
export const signalRef = z.object({
  signalId: signalIdParam.shape.signalId.meta({
    description: 'Id of one of the account’s signals (from list_signals or create_signal)',
  }),
});

export const search = z.object({
  search: z.string().trim().max(200).optional().meta({ description: 'Text to narrow the list' }),
});

const jsonSchemaOf = (schema: z.ZodType) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' });
  return rest;
};

/**
 * `config` is accepted as any object here and checked against the type's own create body in
 * the handler, so a bad config answers the same VALIDATION_ERROR (field by field) as REST;
 * the two shapes are still published to the assistant through `anyOf`.
 */
export const createSignalInput = z.strictObject({
  signalTypeId: z.enum(SIGNAL_TYPE_IDS).meta({ description: `${TYPE_IDS_IN_WORDS}; list_signal_types describes each` }),
  ...creationFields,
  config: z.record(z.string(), z.unknown()).meta({
    description: `Config of the chosen type. ${SIGNAL_TYPES.map((t) => `${t.signalTypeId}: ${t.toolConfigHint}`).join(' ')}`,
    anyOf: SIGNAL_TYPES.map((type) => jsonSchemaOf(type.configSchema)),
  }),
});

export const listSignalsInput = signalListQuery.extend({
  // REST takes the query-string text "true"/"false"; a tool takes a real boolean.
  createdByThisKey: z.boolean().default(false).meta({ description: 'Only signals created with the calling API key' }),
});
