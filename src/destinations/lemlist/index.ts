import { sequencerDestination } from '../kit/sequencer-destination';

/** lemlist: each lead with an e-mail address added to a campaign of a connected account. */
export const lemlist = sequencerDestination('lemlist');
