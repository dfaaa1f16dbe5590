import { InstantlySequencer, INSTANTLY_DEFAULT_API_URL } from './instantly';
import { LemlistSequencer, LEMLIST_DEFAULT_API_URL } from './lemlist';
import type { Sequencer, SequencerName } from './sequencer';
import { SmartleadSequencer, SMARTLEAD_DEFAULT_API_URL } from './smartlead';

export type { Sequencer, SequencerCampaign, SequencerLead, SequencerName } from './sequencer';
export { INSTANTLY_DEFAULT_API_URL, LEMLIST_DEFAULT_API_URL, SMARTLEAD_DEFAULT_API_URL };

/** The `{sequencer}` path segment values (contract section 7). */
export const SEQUENCER_NAMES: readonly SequencerName[] = ['lemlist', 'instantly', 'smartlead'];

export function isSequencerName(value: string): value is SequencerName {
  return (SEQUENCER_NAMES as readonly string[]).includes(value);
}

/** Base URLs come from `LEMLIST_API_URL`, `INSTANTLY_API_URL`, `SMARTLEAD_API_URL`; missing → vendor default. */
export function createSequencer(
  name: SequencerName,
  baseUrls: Partial<Record<SequencerName, string>> = {},
  options: { timeoutMs?: number } = {},
): Sequencer {
  switch (name) {
    case 'lemlist':
      return new LemlistSequencer({ baseUrl: baseUrls.lemlist ?? LEMLIST_DEFAULT_API_URL, ...options });
    case 'instantly':
      return new InstantlySequencer({ baseUrl: baseUrls.instantly ?? INSTANTLY_DEFAULT_API_URL, ...options });
    case 'smartlead':
      return new SmartleadSequencer({ baseUrl: baseUrls.smartlead ?? SMARTLEAD_DEFAULT_API_URL, ...options });
  }
}
