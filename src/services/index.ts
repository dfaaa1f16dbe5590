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
import { Signals } from './signals/signals';
import { TemporalSignalLifecycle } from './signals/temporal-lifecycle';
import { SignalReconciliation } from './signals/reconciliation';
import { LeadProduction } from './leads/production';
import { Leads } from './leads/leads';
import { Funnel } from './leads/funnel';
import { Deliveries } from './deliveries/deliveries';
import { WebhookSender } from './deliveries/webhook-sender';
import { TestSends } from './deliveries/test-sends';
import { EndpointRates } from './deliveries/endpoint-rates';
import { WebhookReplays } from './deliveries/replays';
import { DestinationSender } from './deliveries/destination-sender';
import { Integrations } from './integrations';
import { createEnrichment } from './enrichment/enrichment';
import { Search } from './search';
import { SignalActivityReader } from './signals/activity';
import { Members } from './members';
import { MemberSessions } from './member-sessions';
import { SignInThrottle } from './sign-in-throttle';
import { AttemptBudgets } from './attempt-budgets';
import { AssistantRegistrations } from './assistant-registrations';
import { AccountActivity } from './account-activity';
import { DeliveryLog } from './delivery-log';
import { ServiceMetrics } from '../metrics/service-metrics';
import { createSources } from './sources';
import { Suppressions } from './suppressions';
import { SignalPreviews } from './signals/preview';

export interface ServiceDeps {
  db: DataSource;
  config: Config;
  logger: Logger;
  /** Absent in processes that never start workflows. */
  temporal?: Client;
  /** Tests pass their own to move business time. */
  clock?: Clock;
}

/** The business rules, built once per process and shared by REST, the tool server and activities. */
export function createServices(deps: ServiceDeps) {
  const secrets = new SecretBox(deps.config.SECRETS_KEY);
  const credits = new Credits(deps.db);
  const accounts = new Accounts(deps.db, credits);
  const clock = deps.clock ?? new Clock();
  const crmConnections = new CrmConnections(deps.db, secrets, accounts, deps.config);
  const integrations = new Integrations(deps.db, secrets, crmConnections, deps.config);
  const crmSyncSchedules = new CrmSyncSchedules(deps.db, deps.config, deps.temporal);
  const watchlists = new Watchlists(deps.db);
  const lifecycle = new TemporalSignalLifecycle(deps.db, deps.config, deps.logger, deps.temporal);
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
  const webhookSender = new WebhookSender(deps.db, deps.config);
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
    crmRecordSync: new CrmRecordSync(deps.db, crmConnections, deps.config),
    integrations,
    watchlists,
    suppressions: new Suppressions(deps.db),
    signals,
    signalLifecycle: lifecycle,
    signalReconciliation: new SignalReconciliation(deps.db, deps.config, deps.logger, lifecycle, deps.temporal),
    signalActivity: new SignalActivityReader(deps.db, signals, (signalId) => lifecycle.liveState(signalId)),
    leadProduction: new LeadProduction(deps.db, credits, clock, { read: deps.config.EVALUATION_READ }),
    leads: new Leads(deps.db, credits),
    funnel: new Funnel(deps.db, clock),
    ingestion: new Ingestion(deps.db),
    enrichment: createEnrichment(deps, credits),
    search: new Search(deps.db),
    members: new Members(deps.db, accounts, deps.config.STARTER_CREDITS),
    memberSessions: new MemberSessions(deps.db),
    assistantGrants: new AssistantGrants(deps.db),
    assistantRegistrations: new AssistantRegistrations(deps.db, deps.config),
    signInThrottle: new SignInThrottle(new AttemptBudgets(deps.db)),
    accountActivity: new AccountActivity(deps.db),
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
    signalPreviews: new SignalPreviews(deps.db, { clock, funnel: services.funnel, signals }),
    ...createSources(deps, services.ingestion),
    webhookReplays: new WebhookReplays(deps.db, deps.config, services.deliveries, deps.temporal),
  };
}

export type Services = ReturnType<typeof createServices>;
