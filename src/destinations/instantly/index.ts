import { sequencerDestination } from '../kit/sequencer-destination';

/** Instantly: each lead with an e-mail address added to a campaign of a connected account. */
export const instantly = sequencerDestination('instantly');
