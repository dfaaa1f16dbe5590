import 'reflect-metadata';
import type { EventEmitter } from 'node:events';
import { DataSource } from 'typeorm';
import { Account } from './entities/account';
import { ApiKey } from './entities/api-key';
import { CreditLedgerEntry } from './entities/credit-ledger-entry';
import { Signal } from './entities/signal';
import { WatchedCompany } from './entities/watched-company';
import { Foundation1732240000000 } from './migrations/1732240000000-foundation';
import { Signals1732240100000 } from './migrations/1732240100000-signals';
import { LeadProduction1732240200000 } from './migrations/1732240200000-lead-production';
import { Deliveries1732240300000 } from './migrations/1732240300000-deliveries';
import { Integrations1732240400000 } from './migrations/1732240400000-integrations';
import { Enrichment1732240500000 } from './migrations/1732240500000-enrichment';
import { WebhookEndpoints1732240550000 } from './migrations/1732240550000-webhook-endpoints';
import { EvaluationIndexes1732240600000 } from './migrations/1732240600000-evaluation-indexes';
import { MembersAndSessions1732240700000 } from './migrations/1732240700000-members-and-sessions';
import { FundraisingAndHiring1732240800000 } from './migrations/1732240800000-fundraising-and-hiring';
import { CrmOAuth1732240900000 } from './migrations/1732240900000-crm-oauth';
import { AssistantSignIn1732241000000 } from './migrations/1732241000000-assistant-sign-in';
import { OAuthHashedRecords1732241100000 } from './migrations/1732241100000-oauth-hashed-records';
import { SignInAttempts1732241200000 } from './migrations/1732241200000-sign-in-attempts';
import { Sources1732241300000 } from './migrations/1732241300000-sources';
import { CompanyProfiles1732241400000 } from './migrations/1732241400000-company-profiles';
import { JobBoardPhases1732241500000 } from './migrations/1732241500000-job-board-phases';
import { News1732241600000 } from './migrations/1732241600000-news';
import { SecFormD1732241700000 } from './migrations/1732241700000-sec-form-d';
import { Suppressions1732241900000 } from './migrations/1732241900000-suppressions';
import { CrmExclusions1732242100000 } from './migrations/1732242100000-crm-exclusions';
import { Ted1732242300000 } from './migrations/1732242300000-ted';
import { PeopleDataLabs1732242400000 } from './migrations/1732242400000-people-data-labs';
import { IncrementalEvaluation1732242500000 } from './migrations/1732242500000-incremental-evaluation';
import { SecFormDOffering1732242660000 } from './migrations/1732242660000-sec-form-d-offering';
import { CompanyClaims1732242650000 } from './migrations/1732242650000-company-claims';
import { CompaniesHouse1732242200000 } from './migrations/1732242200000-companies-house';
import { FairSources1732242640000 } from './migrations/1732242640000-fair-sources';
import { SignUpRequests1732242690000 } from './migrations/1732242690000-sign-up-requests';
import { SignalWorkflowOutbox1732242760000 } from './migrations/1732242760000-signal-workflow-outbox';
import { SignalWakeKeys1732242800000 } from './migrations/1732242800000-signal-wake-keys';
import { AwardFeeds1732242720000 } from './migrations/1732242720000-award-feeds';
import { DealSightings1732242710000 } from './migrations/1732242710000-deal-sightings';
import { SecFilings1732242711000 } from './migrations/1732242711000-sec-filings';
import { CompaniesHouseRecords1732242700000 } from './migrations/1732242700000-companies-house-records';
import { CompetitorsAndBluesky1732242730000 } from './migrations/1732242730000-competitors-and-bluesky';
import { Forecasts1732242740000 } from './migrations/1732242740000-forecasts';
import { AccountScore1732242750000 } from './migrations/1732242750000-account-score';
import { closePreparedPool } from './prepared';

export const entities = [Account, ApiKey, CreditLedgerEntry, Signal, WatchedCompany];
export const migrations = [
  Foundation1732240000000,
  Signals1732240100000,
  LeadProduction1732240200000,
  Deliveries1732240300000,
  Integrations1732240400000,
  Enrichment1732240500000,
  WebhookEndpoints1732240550000,
  EvaluationIndexes1732240600000,
  MembersAndSessions1732240700000,
  FundraisingAndHiring1732240800000,
  CrmOAuth1732240900000,
  AssistantSignIn1732241000000,
  OAuthHashedRecords1732241100000,
  SignInAttempts1732241200000,
  Sources1732241300000,
  CompanyProfiles1732241400000,
  JobBoardPhases1732241500000,
  News1732241600000,
  SecFormD1732241700000,
  Suppressions1732241900000,
  CrmExclusions1732242100000,
  Ted1732242300000,
  PeopleDataLabs1732242400000,
  IncrementalEvaluation1732242500000,
  CompanyClaims1732242650000,
  CompaniesHouse1732242200000,
  FairSources1732242640000,
  SecFormDOffering1732242660000,
  SignUpRequests1732242690000,
  SignalWorkflowOutbox1732242760000,
  SignalWakeKeys1732242800000,
  AwardFeeds1732242720000,
  DealSightings1732242710000,
  SecFilings1732242711000,
  CompaniesHouseRecords1732242700000,
  CompetitorsAndBluesky1732242730000,
  Forecasts1732242740000,
  AccountScore1732242750000,
];

const closers = new WeakMap<DataSource, (() => Promise<void>)[]>();

/** Has `close` run when `db` is destroyed: pools opened beside it (the analysis pool) end with it. */
export function closeWith(db: DataSource, close: () => Promise<void>): void {
  closers.set(db, [...(closers.get(db) ?? []), close]);
}

/** TypeORM's data source, which also closes the pool of prepared hot reads (./prepared.ts) and any pool opened beside it. */
class Database extends DataSource {
  override async destroy(): Promise<void> {
    const others = closers.get(this) ?? [];
    closers.delete(this);
    await Promise.all(others.map((close) => close()));
    await closePreparedPool(this);
    await super.destroy();
  }
}

/** Schema changes only through migrations: `synchronize` stays off everywhere. */
export function createDataSource(
  url: string,
  poolSize = 10,
  pool: { connectionTimeoutMillis?: number } = {},
): DataSource {
  return new Database({
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsTransactionMode: 'each',
    extra: { max: poolSize, ...pool },
  });
}

export async function openDatabase(
  url: string,
  poolSize?: number,
  pool?: { connectionTimeoutMillis?: number },
): Promise<DataSource> {
  const dataSource = createDataSource(url, poolSize, pool);
  await dataSource.initialize();
  keepConnectionErrorsHandled(dataSource);
  return dataSource;
}

/**
 * When PostgreSQL goes away (restart, failover) it tells every connection at once. pg-pool
 * listens on idle clients and TypeORM on clients running its queries, but a client passing
 * between the two has no listener for that instant, and an unheard 'error' would end the
 * process. Every client gets a listener of its own; the error still reaches whoever uses the
 * client, through the failed query, and the pool drops the dead client.
 */
function keepConnectionErrorsHandled(dataSource: DataSource): void {
  const pool = (dataSource.driver as unknown as { master?: EventEmitter }).master;
  pool?.on('connect', (client: EventEmitter) => client.on('error', () => undefined));
}

export async function migrate(url: string): Promise<void> {
  const dataSource = await openDatabase(url, 2);
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
}
