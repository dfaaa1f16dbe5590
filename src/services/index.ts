import { DataSource } from 'typeorm';
import { Client } from '@temporalio/client';
import { Config } from '../config';
import { Logger } from '../logger';
import { SecretBox } from '../crypto/secret-box';
import { Accounts } from './accounts';
import { AssistantGrants } from './assistant-grants';
import { ApiKeys } from './api-keys';
import { Credits } from './credits';
import { CrmConnections } from './crm/connections';
import { CrmRecordSync } from './crm/record-sync';
import { CrmSyncSchedules } from './crm/sync-schedules';
import { Ingestion } from './ingestion/ingestion';
import { Clock } from '../clock';
import { Watchlists } from './signals/watchlists';
import { WatchlistMatches } from './signals/watchlist-matches';
import { Signals } from './signals/signals';
import { TemporalSignalLifecycle } from './signals/temporal-lifecycle';
import { SignalReconciliation } from './signals/reconciliation';
import { signalsArrivalsMayConcern } from './leads/evaluation';
import { ArrivalAnnouncer, type WakeSignal } from './signals/arrivals';
import { LeadProduction } from './leads/production';
import { Leads } from './leads/leads';
import { Funnel } from './leads/funnel';
import { LeadEvidence } from './leads/lead-evidence';
import { AccountScores } from './account-scores';
import { Deliveries } from './deliveries/deliveries';
import { WebhookSender } from '../destinations/webhook/webhook-sender';
import { TestSends } from './deliveries/test-sends';
import { EndpointRates } from './deliveries/endpoint-rates';
import { WebhookReplays } from './deliveries/replays';
import { DestinationSender } from './deliveries/destination-sender';
import { Integrations } from './integrations';
import { createEnrichment } from './enrichment/enrichment';
import { Search } from './search';
import { SignalActivityReader } from './signals/activity';
import { Members } from './members';
import { SignUps } from './sign-ups';
import { mailSenderFor } from '../providers/mail/mail-sender';
import { MemberSessions } from './member-sessions';
import { SignInThrottle } from './sign-in-throttle';
import { AttemptBudgets } from './attempt-budgets';
import { AssistantRegistrations } from './assistant-registrations';
import { AccountActivity } from './account-activity';
import { DeliveryLog } from './delivery-log';
import { ServiceMetrics } from '../metrics/service-metrics';
import { createSources } from '../sources';
import { Suppressions } from './suppressions';
import { Competitors } from './competitors';
import { SignalPreviews } from './signals/preview';
import { LookupSlots } from './enrichment/lookup-slots';
import { analysisDatabase } from '../db/analysis-pool';

export interface ServiceDeps {
  db: DataSource;
  config: Config;
  logger: Logger;
  /** Absent in processes that never start workflows. */
  temporal?: Client;
  /** Tests pass their own to move business time. */
  clock?: Clock;
  /** How a signal is woken for arrived rows; a message to its workflow unless a test passes its own. */
  wakeSignal?: WakeSignal;
}

/** The business rules, built once per process and shared by REST, the tool server and activities. */
export function createServices(deps: ServiceDeps) {
  const secrets = new SecretBox(deps.config.SECRETS_KEY);
  const clock = deps.clock ?? new Clock();
  const lifecycle = new TemporalSignalLifecycle(deps.db, deps.config, deps.logger, deps.temporal);
  // First: the services whose changes no written row announces tell their signals through it.
  const arrivals = new ArrivalAnnouncer(
    deps.db,
    deps.logger,
    deps.wakeSignal ??
      (deps.temporal && deps.config.SIGNAL_WAKE_ON_ARRIVAL ? (signalId) => lifecycle.wake(signalId) : undefined),
    {
      windowMs: deps.config.SIGNAL_WAKE_WINDOW,
      sendsAtOnce: deps.config.SIGNAL_WAKE_SENDS,
      gapMs: deps.config.SIGNAL_WAKE_GAP,
      screen: (signalIds, events) => signalsArrivalsMayConcern(deps.db, signalIds, events, clock.now()),
    },
  );
  const credits = new Credits(deps.db, arrivals);
  const accounts = new Accounts(deps.db, credits);
  const crmConnections = new CrmConnections(deps.db, secrets, accounts, deps.config);
  const integrations = new Integrations(deps.db, secrets, crmConnections, deps.config);
  const crmSyncSchedules = new CrmSyncSchedules(deps.db, deps.config, deps.temporal);
  const watchlists = new Watchlists(deps.db, arrivals);
  const apiKeys = new ApiKeys(deps.db, secrets);
  const signals = new Signals(deps.db, {
    config: deps.config,
    clock,
    watchlists,
    crmConnections,
    crmSyncSchedules,
    integrations,
    credits,
    lifecycle,
    apiKeys,
    secrets,
  });
  const metrics = new ServiceMetrics(deps.db);
  // Previews and funnels read on a small pool of their own (db/analysis-pool.ts); a pool
  // connection is waited for no longer than a preview's statement may run.
  const analysisDb = () =>
    analysisDatabase(deps.db, {
      size: deps.config.ANALYSIS_POOL_SIZE,
      waitMs: deps.config.PREVIEW_STATEMENT_TIMEOUT,
    });
  const webhookSender = new WebhookSender(deps.db, deps.config);
  const members = new Members(deps.db, accounts);
  const attemptBudgets = new AttemptBudgets(deps.db);
  const services = {
    ...deps,
    clock,
    secrets,
    metrics,
    credits,
    accounts,
    apiKeys,
    crmConnections,
    crmSyncSchedules,
    crmRecordSync: new CrmRecordSync(deps.db, crmConnections, deps.config, arrivals),
    integrations,
    watchlists,
    watchlistMatches: new WatchlistMatches(deps.db),
    suppressions: new Suppressions(deps.db, deps.config.SUPPRESSIONS_PER_ACCOUNT, arrivals),
    competitors: new Competitors(deps.db, arrivals),
    signals,
    signalLifecycle: lifecycle,
    signalReconciliation: new SignalReconciliation(deps.db, deps.config, deps.logger, lifecycle, deps.temporal),
    signalActivity: new SignalActivityReader(deps.db, signals, (signalId) => lifecycle.liveState(signalId)),
    leadProduction: new LeadProduction(deps.db, credits, clock, { read: deps.config.EVALUATION_READ }),
    leads: new Leads(deps.db, credits),
    funnel: new Funnel(analysisDb, clock),
    leadEvidence: new LeadEvidence(deps.db),
    accountScores: new AccountScores(deps.db, clock, arrivals),
    arrivals,
    ingestion: new Ingestion(deps.db, arrivals),
    enrichment: createEnrichment(deps, credits),
    search: new Search(deps.db),
    members,
    signUps: new SignUps(deps.db, {
      accounts,
      members,
      budgets: attemptBudgets,
      mail: mailSenderFor(deps.config, deps.logger),
      logger: deps.logger,
      starterCredits: deps.config.STARTER_CREDITS,
    }),
    memberSessions: new MemberSessions(deps.db),
    assistantGrants: new AssistantGrants(deps.db),
    assistantRegistrations: new AssistantRegistrations(deps.db, deps.config),
    signInThrottle: new SignInThrottle(attemptBudgets),
    accountActivity: new AccountActivity(deps.db, clock),
    deliveryLog: new DeliveryLog(deps.db),
    testSends: new TestSends(deps.db, deps.config, apiKeys, webhookSender),
    deliveries: new Deliveries(
      deps.db,
      apiKeys,
      webhookSender,
      new DestinationSender(integrations, crmConnections, deps.config, secrets),
      new EndpointRates(deps.db),
      { metrics, logger: deps.logger },
    ),
  };
  return {
    ...services,
    signalPreviews: new SignalPreviews(analysisDb, {
      clock,
      funnel: services.funnel,
      signals,
      statementTimeoutMs: deps.config.PREVIEW_STATEMENT_TIMEOUT,
      // The slow lookups' per-key cap, counted apart: previews never spend enrichment's room.
      slots: new LookupSlots(
        deps.db,
        {
          capPerKey: deps.config.PREVIEW_CONCURRENCY_PER_KEY,
          lookupMs: deps.config.PREVIEW_STATEMENT_TIMEOUT,
          purpose: 'cost previews',
        },
        deps.logger,
      ),
    }),
    ...createSources(deps, services.ingestion),
    webhookReplays: new WebhookReplays(deps.db, deps.config, services.deliveries, deps.temporal),
  };
}

export type Services = ReturnType<typeof createServices>;
