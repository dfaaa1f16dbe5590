import type { Scenario, SignalKind } from './scenario';

/**
 * Scenarios every run of the property plays first, before the generated ones: the changes
 * that bring an old event back in ways a watermark can miss. Written as the generator writes
 * them, so a shrunk counterexample of a failure can be pasted here to keep it.
 */

const world = {
  companies: [
    { industry: 0, size: 0, country: 0 },
    { industry: 0, size: 0, country: 0 },
    { industry: 0, size: 0, country: 0 },
  ],
  // p0 is the only CTO (persona Chief Technology Officer); the others are CFOs.
  people: [
    { company: 0, title: 0, country: 0, personalEmail: false },
    { company: 2, title: 1, country: 0, personalEmail: false },
  ],
};

const base = { startMinutes: 600, credits: 30, dailyLeadLimit: 6, batchSize: 100, watched: [], ...world };

export const EXAMPLES: Partial<Record<SignalKind, Scenario[]>> = {
  fundraising: [
    // The CTO's lead (at c0) blocks a round at c1 after they move there; once the 1-day
    // window has run out the round at c1 is a lead again.
    {
      ...base,
      kind: 'fundraising',
      duplicateHandling: '1d',
      config: { targetPersonas: ['Chief Technology Officer'] },
      events: [{ type: 'fundraising', company: 0, person: null, minutes: -60, variant: 0 }],
      commands: [
        { do: 'evaluate' },
        { do: 'changePerson', person: 0, company: 1 },
        { do: 'ingest', events: [{ type: 'fundraising', company: 1, person: null, minutes: -10, variant: 0 }] },
        { do: 'evaluate' },
        { do: 'advance', minutes: 2880 },
        { do: 'evaluate' },
      ],
    },
  ],
  account_watchlist: [
    // A company event at c0 names the CTO (targeting); their own decision-maker event at c1
    // is blocked by that lead for a day, then is a lead.
    {
      ...base,
      kind: 'account_watchlist',
      duplicateHandling: '1d',
      watched: [0, 1],
      config: { targetPersonas: ['Chief Technology Officer'] },
      events: [{ type: 'public_tenders', company: 0, person: null, minutes: -60, variant: 0 }],
      commands: [
        { do: 'evaluate' },
        { do: 'ingest', events: [{ type: 'new_decision_makers', company: 1, person: 0, minutes: -10, variant: 0 }] },
        { do: 'evaluate' },
        { do: 'advance', minutes: 2880 },
        { do: 'evaluate' },
      ],
    },
  ],
};
