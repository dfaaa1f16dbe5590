import { z } from 'zod';
import {
  JOB_CHANGE_LAST_SIGNAL_LABEL,
  WATCHLIST_EVENT_KEYS,
  WATCHLIST_SIGNAL_FIELDS,
  enabledWatchlistEvents,
  isPersonLevelEvent,
  isWatchlistEventKey,
  lastSignalLabel,
  resolveWatchlistSources,
} from '../catalogue/watchlist-events';
import type { Signal } from '../db/entities/signal';
import { coreNameSql } from '../catalogue/identifiers';
import { competitorOfSignal, watchedBySignal } from './watched-companies';
import {
  DAY_MS,
  LEAD_FOR_EVENT,
  duplicateClause,
  occurredBetween,
  type EvaluationPlan,
  type ReadColumns,
} from './kit/evaluation-rules';
import { companyEntries, personaName } from './kit/config';
import { fieldUnused, type SettingsReview } from './kit/settings-warnings';
import { defineSignalType } from './kit/signal-type';
import { signalWakeKeys } from './kit/wake-keys';

const sourceSetting = z.strictObject({ enabled: z.boolean() });
export const watchlistSources = z.strictObject(
  Object.fromEntries(WATCHLIST_EVENT_KEYS.map((key) => [key, sourceSetting.optional()])) as Record<
    (typeof WATCHLIST_EVENT_KEYS)[number],
    z.ZodOptional<typeof sourceSetting>
  >,
);

export const accountWatchlistConfig = z.strictObject({
  companies: companyEntries.optional().meta({
    description:
      'Company names, domains, company page URLs or {name, domain, linkedinUrl} objects; consumed into the watchlist, never echoed',
  }),
  sources: watchlistSources
    .optional()
    .meta({ description: 'Per event `{enabled}`; every event is on by default except company_news' }),
  firstRunLookbackDays: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .optional()
    .meta({ description: 'How far back the first check reaches, in days (default 180)' }),
  targetPersonas: z
    .array(personaName)
    .max(200)
    .optional()
    .meta({ description: 'Persona names; each event then names a matching person at the company' }),
  getEmails: z.boolean().optional().meta({ description: 'Find the email of each person-level lead' }),
  getPhones: z.boolean().optional().meta({ description: 'Include the phone of each person-level lead' }),
});
export type AccountWatchlistConfig = z.output<typeof accountWatchlistConfig>;

/** What is stored for a watchlist: the config minus the consumed companies. */
export type StoredWatchlistConfig = Omit<AccountWatchlistConfig, 'companies'>;

/** The funnel stage of company_news events whose article is missing or does not name the company. */
export const NEWS_ARTICLE_STAGE = 'companyNewsArticle';

const newsText = (field: string) => `coalesce(e.data->>'${field}', '')`;
const ARTICLE_TEXT = `lower(${newsText('news_headline')} || ' ' || ${newsText('news_title')} || ' ' || ${newsText('news_summary')})`;
/**
 * A company_news event counts only when its article is there (URL, and headline or title) and
 * names the company: its name (without legal form, as the news source reads it) in the
 * headline, title or summary; or its domain, or the domain's
 * first label as a word ("acme" of acme.co.uk, at least 3 characters), there or in the URL.
 * Other events pass.
 */
const NEWS_NAMES_COMPANY = `(e.type <> 'company_news' OR (
    ${newsText('news_url')} <> '' AND (${newsText('news_headline')} <> '' OR ${newsText('news_title')} <> '')
    AND (strpos(${ARTICLE_TEXT}, ${coreNameSql('c.name')}) > 0
      OR (c.domain IS NOT NULL AND (strpos(lower(${newsText('news_url')}) || ' ' || ${ARTICLE_TEXT}, c.domain) > 0
        OR (length(split_part(c.domain, '.', 1)) >= 3
            AND (lower(${newsText('news_url')}) || ' ' || ${ARTICLE_TEXT}) ~ ('\\m' || split_part(c.domain, '.', 1) || '\\M')))))))`;

/**
 * Account watchlist: events at watched companies (by URL, else domain, else a name no other
 * watched entry shares, and a name only binds a trusted company: a claimed one is reached by
 * the domain its claimants named, docs/decisions/claims.md) or of watched people, of the enabled kinds, inside the window that the
 * first check anchored. With targetPersonas, a company-level event names a person of a
 * matching persona at the company; person-level events need a matching person themselves.
 */
function evaluationPlan(signal: Signal, now: Date): EvaluationPlan {
  const config = signal.config as StoredWatchlistConfig;
  const args: unknown[] = [signal.id];
  const anchor = signal.firstEvaluatedAt ?? now;
  const lookbackDays = config.firstRunLookbackDays ?? 180;
  const eligibleSince = new Date(anchor.getTime() - lookbackDays * DAY_MS);
  const personas = config.targetPersonas ?? [];
  const targeting = personas.length > 0;
  const personasArg = targeting ? `$${args.push(personas)}::text[]` : '';
  // The lead's person: the event's own, or with targeting a matching person at the company.
  const personJoin = targeting
    ? `LEFT JOIN LATERAL (
         SELECT * FROM people x
         WHERE (e.person_id IS NOT NULL AND x.id = e.person_id)
            OR (e.person_id IS NULL AND x.company_id = c.id AND x.persona = ANY(${personasArg}))
         ORDER BY x.id LIMIT 1) p ON TRUE`
    : `LEFT JOIN people p ON p.id = e.person_id`;
  const subject = `CASE WHEN p.id IS NOT NULL THEN 'person:' || p.id ELSE 'company:' || c.id END`;
  return {
    joins: `JOIN companies c ON c.id = e.company_id ${personJoin}`,
    ...(targeting ? { namedPeople: (x: string) => `${x}.persona = ANY(${personasArg})` } : {}),
    kind: `e.type = ANY($${args.push([...WATCHLIST_EVENT_KEYS])}::text[])`,
    // A competitor event counts at a competitor of the watchlist's account as well (docs/sources.md).
    watched: `(${watchedBySignal('$1')} OR ${competitorOfSignal('$1')})`,
    filters: [
      { field: 'sources', sql: `e.type = ANY($${args.push(enabledWatchlistEvents(config.sources))}::text[])` },
      { field: NEWS_ARTICLE_STAGE, sql: NEWS_NAMES_COMPANY },
      { field: 'firstRunLookbackDays', sql: occurredBetween(args, eligibleSince, now) },
      { field: 'targetPersonas', sql: targeting ? `p.id IS NOT NULL AND p.persona = ANY(${personasArg})` : 'TRUE' },
    ],
    isLead: LEAD_FOR_EVENT,
    subjectAllowed: duplicateClause(signal, args, now, subject),
    subject,
    eligibleSince,
    maxAgeDays: null,
    args,
  };
}

/**
 * The plan above: a company's identifiers (page URL, domain, name key), trust and name (the
 * news rule); a person's company and persona (targeting) and page URL (watched people).
 */
const reads: ReadColumns = {
  companies: ['linkedin_url', 'domain', 'name_key', 'provenance', 'name'],
  people: ['company_id', 'persona', 'linkedin_url'],
};

/** getEmails/getPhones only act on person-level leads; say so when this watchlist can produce none. */
function reviewSettings(config: StoredWatchlistConfig, review: SettingsReview): void {
  const events = enabledWatchlistEvents(config.sources);
  if (events.length === 0) {
    review.warnings.push({
      code: 'NO_SOURCES_ENABLED',
      field: 'sources',
      severity: 'warning',
      message: 'Every event source is disabled, so this watchlist produces no lead',
      values: [],
    });
  }
  const producesPeople = (config.targetPersonas?.length ?? 0) > 0 || events.some(isPersonLevelEvent);
  for (const field of ['getEmails', 'getPhones'] as const) {
    if (config[field] && !producesPeople) {
      fieldUnused(
        field,
        'the enabled events are company-level and no targetPersonas are set, so leads carry no person',
        review,
      );
    }
  }
}

/** Every watchlist lead's price, whatever its event; emails found cost nothing more. */
const WATCHLIST_CREDITS_PER_LEAD = 3;

export const accountWatchlist = defineSignalType<StoredWatchlistConfig>({
  signalTypeId: 'account_watchlist',
  name: 'Account watchlist',
  description:
    'Events at the companies you watch: funding, deals, hiring, new decision makers, social activity, news and forecasts.',
  createPath: 'account-watchlist',
  operationName: 'AccountWatchlist',
  createSummary: (price) => `Create an account-watchlist signal (${price}); answers the import result of the companies`,
  toolConfigHint:
    'companies (names, domains, company page URLs or {name, domain, linkedinUrl}) and optional sources, targetPersonas, ...',
  configSchema: accountWatchlistConfig,
  pricingModel: 'per_lead: 3 credits per lead, any event',
  creditsPerLead: WATCHLIST_CREDITS_PER_LEAD,
  creditsPerEmailFound: 0,
  defaultDuplicateHandling: 'allow',
  leadFields: WATCHLIST_SIGNAL_FIELDS,
  lastSignalLabel: (c) =>
    isWatchlistEventKey(c.event_type) ? lastSignalLabel(c.event_type) : JOB_CHANGE_LAST_SIGNAL_LABEL,
  watchesCompanies: true,
  // Every setting is stored with its default, so a removed one falls back to it rather than vanishing.
  storedConfig: (config) => ({
    ...config,
    sources: resolveWatchlistSources(config.sources as Record<string, { enabled?: boolean }> | undefined),
    firstRunLookbackDays: config.firstRunLookbackDays ?? 180,
  }),
  missingForActivation: (_config, watchedCount) =>
    watchedCount === 0 ? [{ field: 'config.companies', label: 'Watched companies' }] : [],
  reviewSettings,
  evaluationPlan,
  reads,
  // The enabled kinds at what its entries watch (a change of `sources` is a config change, which
  // wakes it anyway); a new person at a watched company (persona targeting).
  wakeKeys: (config) =>
    signalWakeKeys({ kinds: enabledWatchlistEvents(config.sources), events: 'watched', people: 'watched' }),
  testSendSample: {
    event_type: 'new_decision_makers',
    data: { watchlist_role: 'Chief Technology Officer', new_job_started_on: '10/2026', new_job_start_month: '2026-10' },
  },
  dashboardForm: {
    fields: [
      {
        input: 'lines',
        name: 'companies',
        label: 'Companies to watch',
        editLabel: 'Add companies',
        hint: 'one per line: name, domain or company page URL',
        onlyAdds: true,
      },
      { input: 'watchlistSources', name: 'sources', legend: 'Events' },
      {
        input: 'number',
        name: 'firstRunLookbackDays',
        label: 'First check reaches back, in days',
        hint: 'optional, default 180',
        min: 1,
        max: 3650,
      },
      { input: 'personas', name: 'targetPersonas', label: 'Target personas (optional)' },
      // The price beside the choice, as the job-changes form gives its own (issue 38, item 10).
      {
        input: 'flag',
        name: 'getEmails',
        label: `Find emails (no extra credit: included in the ${WATCHLIST_CREDITS_PER_LEAD} credits a lead; leads with a person only)`,
      },
      { input: 'flag', name: 'getPhones', label: 'Include phones' },
    ],
  },
});
