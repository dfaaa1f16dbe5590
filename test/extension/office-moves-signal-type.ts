import { z } from 'zod';
import { textList } from '../../src/signal-types/kit/config';
import { MARKET_WIDE_READS, marketWideFields, marketWidePlan } from '../../src/signal-types/kit/market-wide';
import { defineSignalType } from '../../src/signal-types/kit/signal-type';
import { registerSignalType } from '../../src/signal-types/registry';

/**
 * A throwaway signal type, made only by this module and one `registerSignalType` call, as an
 * extension would add one: companies that moved offices. Imported before the API's modules.
 */
const officeMovesConfig = z.strictObject({
  newCities: textList.optional().meta({ description: 'Cities the company moved to; all when absent' }),
  ...marketWideFields,
});

export const officeMoves = defineSignalType<z.output<typeof officeMovesConfig>>({
  signalTypeId: 'office_moves',
  name: 'Office moves',
  description: 'Companies that moved their offices.',
  createPath: 'office-moves',
  operationName: 'OfficeMoves',
  createSummary: (price) => `Create an office-moves signal (${price})`,
  toolConfigHint: 'optional newCities, company filters, targetPersonas.',
  configSchema: officeMovesConfig,
  pricingModel: 'per_lead: 3 credits per lead',
  creditsPerLead: 3,
  creditsPerEmailFound: 0,
  defaultDuplicateHandling: '90d',
  leadFields: ['office_city'],
  lastSignalLabel: () => 'Moved offices',
  missingForActivation: () => [],
  reviewSettings: () => undefined,
  evaluationPlan: (signal, now) => marketWidePlan(signal, now, 'office_move', 90, () => []),
  reads: MARKET_WIDE_READS,
  testSendSample: { event_type: 'office_move', data: { office_city: 'Austin' } },
});

registerSignalType(officeMoves);
