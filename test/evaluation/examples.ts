import type { Scenario } from './scenario';

/**
 * Written scenarios, played besides the generated ones: changes that bring an old event back
 * in ways a watermark can miss. Written as the generator writes them, so a shrunk
 * counterexample of a failure can be pasted here to keep it.
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

export const EXAMPLES: { name: string; scenario: Scenario }[] = [
  {
    name: "fundraising, targetPersonas, 1d: a person's lead blocks a round at the company they moved to, until the window runs out",
    scenario: {
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
  },
  {
    name: 'fundraising, targetPersonas, refuse: once the named person opts out, the refused round names the next one',
    scenario: {
      ...base,
      kind: 'fundraising',
      duplicateHandling: 'refuse',
      config: { targetPersonas: ['Chief Technology Officer'] },
      people: [...world.people, { company: 0, title: 0, country: 0, personalEmail: false }],
      events: [{ type: 'fundraising', company: 0, person: null, minutes: -60, variant: 0 }],
      commands: [
        { do: 'evaluate' },
        { do: 'ingest', events: [{ type: 'fundraising', company: 0, person: null, minutes: -10, variant: 0 }] },
        { do: 'evaluate' },
        { do: 'forgetPerson', person: 0 },
        { do: 'evaluate' },
      ],
    },
  },
  {
    name: "account watchlist, targetPersonas, 1d: a company event's lead names a person whose own event elsewhere waits for the window",
    scenario: {
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
  },
  {
    name: 'job changes: an event whose ingestion commits after an evaluation began is read by the next one',
    scenario: {
      ...base,
      kind: 'job_changes',
      duplicateHandling: 'refuse',
      config: { jobTitles: ['Chief Technology Officer', 'Chief Financial Officer'] },
      events: [{ type: 'job_change', company: 0, person: 1, minutes: -60, variant: 0 }],
      // The evaluation the ingestion spans produces a lead, so transactions newer than it end first.
      commands: [
        {
          do: 'ingestAcrossEvaluation',
          events: [{ type: 'job_change', company: 0, person: 0, minutes: -10, variant: 0 }],
        },
        { do: 'evaluate' },
      ],
    },
  },
  {
    name: "fundraising: a claimed company's round is taken once a trusted record corroborates the company (docs/decisions/claims.md)",
    scenario: {
      ...base,
      kind: 'fundraising',
      duplicateHandling: 'refuse',
      config: {},
      events: [],
      commands: [
        { do: 'changeCompany', company: 1, claimed: true },
        { do: 'ingest', events: [{ type: 'fundraising', company: 1, person: null, minutes: -10, variant: 0 }] },
        { do: 'evaluate' },
        { do: 'changeCompany', company: 1, claimed: false },
        { do: 'evaluate' },
      ],
    },
  },
  {
    name: 'fundraising, industryFilters: a company that moves into the industry brings its old round in (wakes by company)',
    scenario: {
      ...base,
      kind: 'fundraising',
      duplicateHandling: 'refuse',
      config: { industryFilters: ['Financial Services'] },
      events: [{ type: 'fundraising', company: 0, person: null, minutes: -60, variant: 0 }],
      commands: [{ do: 'evaluate' }, { do: 'changeCompany', company: 0, industry: 1 }, { do: 'evaluate' }],
    },
  },
  {
    name: 'job changes: a person whose new title matches brings their old job change in (wakes by person)',
    scenario: {
      ...base,
      kind: 'job_changes',
      duplicateHandling: 'refuse',
      config: { jobTitles: ['Chief Financial Officer'] },
      events: [{ type: 'job_change', company: 0, person: 0, minutes: -60, variant: 0 }],
      commands: [{ do: 'evaluate' }, { do: 'changePerson', person: 0, title: 1 }, { do: 'evaluate' }],
    },
  },
  // Changes no row announces: their services tell the signal (docs/decisions/wake-on-arrival.md).
  {
    name: 'job changes: credits granted after a deferral for credits bring the deferred lead (wakes by tell)',
    scenario: {
      ...base,
      kind: 'job_changes',
      credits: 2,
      duplicateHandling: 'refuse',
      config: { jobTitles: ['Chief Technology Officer', 'Chief Financial Officer'] },
      events: [
        { type: 'job_change', company: 0, person: 0, minutes: -60, variant: 0 },
        { type: 'job_change', company: 2, person: 1, minutes: -50, variant: 0 },
      ],
      commands: [{ do: 'evaluate' }, { do: 'topUp', credits: 4 }, { do: 'evaluate' }],
    },
  },
  {
    name: 'job changes: a suppression removed brings the lead it held; one added tells nobody (wakes by tell)',
    scenario: {
      ...base,
      kind: 'job_changes',
      duplicateHandling: 'refuse',
      config: { jobTitles: ['Chief Technology Officer'] },
      events: [{ type: 'job_change', company: 0, person: 0, minutes: -60, variant: 0 }],
      commands: [
        { do: 'suppress', what: 'domain', target: 0, scope: 'account' },
        { do: 'evaluate' },
        { do: 'suppress', what: 'domain', target: 1, scope: 'signal' },
        { do: 'evaluate' },
        { do: 'unsuppress', entry: 0 },
        { do: 'evaluate' },
      ],
    },
  },
  {
    name: 'account watchlist: a company watched later brings its stored round (wakes by tell)',
    scenario: {
      ...base,
      kind: 'account_watchlist',
      duplicateHandling: 'refuse',
      watched: [0],
      config: {},
      events: [{ type: 'fundraising', company: 1, person: null, minutes: -60, variant: 0 }],
      commands: [{ do: 'evaluate' }, { do: 'watch', what: 'company', target: 1 }, { do: 'evaluate' }],
    },
  },
  // Passing time: nothing announces it; the evaluation's nextDueAt wakes the signal (docs/decisions/wake-on-arrival.md).
  {
    name: 'job changes, cap 1: the deferred lead comes once the cap day ends (due by time)',
    scenario: {
      ...base,
      kind: 'job_changes',
      dailyLeadLimit: 1,
      duplicateHandling: 'refuse',
      config: { jobTitles: ['Chief Technology Officer', 'Chief Financial Officer'] },
      events: [
        { type: 'job_change', company: 0, person: 0, minutes: -60, variant: 0 },
        { type: 'job_change', company: 2, person: 1, minutes: -50, variant: 0 },
      ],
      // The top-up wakes it the same day: deferred by the cap, it answers the next UTC day.
      commands: [
        { do: 'evaluate' },
        { do: 'topUp', credits: 1 },
        { do: 'evaluate' },
        { do: 'advance', minutes: 1440 },
        { do: 'evaluate' },
      ],
    },
  },
  {
    name: "job changes, cap 1: the day's last lead taken, a candidate past the batch comes the next day (due by time, no deferral)",
    scenario: {
      ...base,
      kind: 'job_changes',
      dailyLeadLimit: 1,
      duplicateHandling: 'refuse',
      config: { jobTitles: ['Chief Technology Officer', 'Chief Financial Officer'] },
      events: [
        { type: 'job_change', company: 0, person: 0, minutes: -60, variant: 0 },
        { type: 'job_change', company: 2, person: 1, minutes: -50, variant: 0 },
      ],
      commands: [{ do: 'evaluate' }, { do: 'advance', minutes: 1440 }, { do: 'evaluate' }],
    },
  },
  {
    name: 'fundraising: a round dated ahead becomes a lead once its date comes (due by time)',
    scenario: {
      ...base,
      kind: 'fundraising',
      duplicateHandling: 'refuse',
      config: {},
      events: [{ type: 'fundraising', company: 0, person: null, minutes: 30, variant: 0 }],
      commands: [
        { do: 'evaluate' },
        { do: 'advance', minutes: 20 },
        { do: 'evaluate' },
        { do: 'advance', minutes: 10 },
        { do: 'evaluate' },
      ],
    },
  },
  {
    name: "job changes, 1d: a person's second job change waits for the duplicate window, then comes (due by time)",
    scenario: {
      ...base,
      kind: 'job_changes',
      duplicateHandling: '1d',
      config: { jobTitles: ['Chief Technology Officer'] },
      events: [
        { type: 'job_change', company: 0, person: 0, minutes: -60, variant: 0 },
        { type: 'job_change', company: 1, person: 0, minutes: -50, variant: 0 },
      ],
      commands: [
        { do: 'evaluate' },
        { do: 'advance', minutes: 720 },
        { do: 'evaluate' },
        { do: 'advance', minutes: 720 },
        { do: 'evaluate' },
      ],
    },
  },
];
