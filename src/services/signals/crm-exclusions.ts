import { z } from 'zod';
import type { DataSource } from 'typeorm';
import { firstRow } from '../../db/sql';
import type { CrmExclusions } from '../../db/entities/signal';
import { validationError } from '../../errors';
import type { CrmConnections } from '../crm/connections';
import { EXCLUDABLE_CRMS, isExcludableCrm } from '../crm/record-sync';
import type { SignalWarning } from '../../signal-types/kit/settings-warnings';

/** A signal's exclusions from the customer's CRM; `null` turns them off. */
export const crmExclusionsSetting = z
  .strictObject({
    connectionId: z.uuid().meta({
      description: `The ${EXCLUDABLE_CRMS.join(', ')} connection whose records are excluded (GET /api/v1/integrations)`,
    }),
    excludeExistingCrmContacts: z
      .boolean()
      .default(false)
      .meta({ description: 'No lead for a person whose email is a contact (or Salesforce lead) in the CRM' }),
    excludeCrmCompanies: z
      .boolean()
      .default(false)
      .meta({ description: "No lead at a company whose domain is a company's (account's, organization's) in the CRM" }),
  })
  .nullable()
  .meta({
    id: 'CrmExclusions',
    description:
      "Leave out people and companies already in the customer's CRM, read from a synced copy (no vendor call per lead)",
  });
export type CrmExclusionsSetting = z.output<typeof crmExclusionsSetting>;

/** The connection must be one of the account's, of a CRM that holds contacts. */
export async function assertCrmExclusions(
  connections: Pick<CrmConnections, 'list'>,
  accountId: string,
  setting: CrmExclusions,
): Promise<void> {
  const connection = (await connections.list(accountId)).find((c) => c.integrationId === setting.connectionId);
  if (!connection || !isExcludableCrm(connection.provider))
    throw validationError([
      {
        field: 'crmExclusions.connectionId',
        message: `no ${EXCLUDABLE_CRMS.join(', ')} connection of this account has this id`,
      },
    ]);
}

/**
 * What the signal's CRM exclusions rest on, said rather than hidden: a connection removed
 * (nothing is excluded), broken (the last synced records still are, and no newer ones), a
 * first sync not yet done, or a sync that failed.
 */
export async function crmExclusionWarnings(db: DataSource, setting: CrmExclusions | null): Promise<SignalWarning[]> {
  if (!setting || (!setting.excludeExistingCrmContacts && !setting.excludeCrmCompanies)) return [];
  const state = await firstRow<{
    status: 'connected' | 'broken';
    broken_reason: string | null;
    last_success_at: Date | null;
    last_error: string | null;
  }>(
    db,
    `SELECT c.status, c.broken_reason, s.last_success_at, s.last_error
     FROM crm_connections c LEFT JOIN crm_syncs s ON s.connection_id = c.id WHERE c.id = $1`,
    [setting.connectionId],
  );
  const warning = (code: string, severity: SignalWarning['severity'], message: string): SignalWarning[] => [
    { code, field: 'crmExclusions', severity, message, values: [setting.connectionId] },
  ];
  if (!state)
    return warning(
      'CRM_EXCLUSIONS_DISCONNECTED',
      'warning',
      'The CRM connection was removed: nothing is excluded from the CRM until crmExclusions names a connected one',
    );
  const synced = state.last_success_at ? `synced ${state.last_success_at.toISOString()}` : 'never synced';
  if (state.status === 'broken')
    return warning(
      'CRM_EXCLUSIONS_BROKEN',
      'warning',
      `The CRM connection is broken (${state.broken_reason ?? 'refused'}): nothing is excluded from the CRM until it is reconnected on the integrations page (the records ${synced} are kept for then)`,
    );
  if (state.last_error && !state.last_success_at)
    return warning(
      'CRM_EXCLUSIONS_SYNC_FAILED',
      'warning',
      `The first CRM sync failed (${state.last_error}): nothing is excluded yet`,
    );
  if (state.last_error)
    return warning(
      'CRM_EXCLUSIONS_SYNC_FAILED',
      'warning',
      `The last CRM sync failed (${state.last_error}): the records ${synced} are excluded`,
    );
  if (!state.last_success_at)
    return warning('CRM_EXCLUSIONS_PENDING', 'info', 'The first CRM sync has not finished: nothing is excluded yet');
  return [];
}
