import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { Account } from './entities/account';
import { ApiKey } from './entities/api-key';
import { CreditLedgerEntry } from './entities/credit-ledger-entry';
import { CrmConnection } from './entities/crm-connection';
import { WorkflowProbe } from './entities/workflow-probe';
import { Foundation1732240000000 } from './migrations/1732240000000-foundation';

export const entities = [Account, ApiKey, CreditLedgerEntry, CrmConnection, WorkflowProbe];
export const migrations = [Foundation1732240000000];

/** Schema changes only through migrations: `synchronize` stays off everywhere. */
export function createDataSource(url: string, poolSize = 10): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsTransactionMode: 'each',
    extra: { max: poolSize },
  });
}

export async function openDatabase(url: string, poolSize?: number): Promise<DataSource> {
  const dataSource = createDataSource(url, poolSize);
  await dataSource.initialize();
  return dataSource;
}

export async function migrate(url: string): Promise<void> {
  const dataSource = await openDatabase(url, 2);
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
}
