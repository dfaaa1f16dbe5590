import { DataSource } from 'typeorm';
import { Client } from '@temporalio/client';
import { Config } from '../config';
import { Logger } from '../logger';
import { SecretBox } from '../crypto/secret-box';
import { Accounts } from './accounts';
import { ApiKeys } from './api-keys';
import { Credits } from './credits';
import { CrmConnections } from './crm-connections';
import { WorkflowProbes } from './workflow-probes';

export interface ServiceDeps {
  db: DataSource;
  config: Config;
  logger: Logger;
  /** Absent in processes that never start workflows. */
  temporal?: Client;
}

/** The business rules, built once per process and shared by REST, the tool server and activities. */
export function createServices(deps: ServiceDeps) {
  const secrets = new SecretBox(deps.config.SECRETS_KEY);
  const credits = new Credits(deps.db);
  const accounts = new Accounts(deps.db, credits);
  return {
    ...deps,
    secrets,
    credits,
    accounts,
    apiKeys: new ApiKeys(deps.db, secrets),
    crmConnections: new CrmConnections(deps.db, secrets, accounts),
    workflowProbes: new WorkflowProbes(deps.db),
  };
}

export type Services = ReturnType<typeof createServices>;
