import { sequencerDestination } from '../kit/sequencer-destination';

/** Smartlead: each lead with an e-mail address added to a campaign of a connected account. */
export const smartlead = sequencerDestination('smartlead');
