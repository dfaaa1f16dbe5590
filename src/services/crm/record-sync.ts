import type { DataSource } from 'typeorm';
import { changed, execute, firstRow, rows } from '../../db/sql';
import type { Config } from '../../config';
import { OutboundHttpError } from '../../providers/outbound-error';
import type { CrmRecord, CrmRecordReader } from '../../providers/crm/records';
import { HubSpotRecords } from '../../providers/crm/hubspot-records';
import { SalesforceRecords } from '../../providers/crm/salesforce-records';
import { PipedriveRecords } from '../../providers/crm/pipedrive-records';
import { normaliseSuppression } from '../suppressions';
import type { ArrivalAnnouncements } from '../signals/arrivals';
import { ConnectionBroken, type CrmAccess, type CrmConnections } from './connections';
import type { CrmProvider } from './vendors';

/** The CRMs whose contacts and companies a signal can exclude. */
export const EXCLUDABLE_CRMS = ['hubspot', 'salesforce', 'pipedrive'] as const;
export type ExcludableCrm = (typeof EXCLUDABLE_CRMS)[number];
export const isExcludableCrm = (provider: string): provider is ExcludableCrm =>
  (EXCLUDABLE_CRMS as readonly string[]).includes(provider);

/** A modified-since query never sees a deletion: a full read this often drops what the CRM no longer holds. */
export const FULL_SYNC_EVERY_MS = 7 * 86_400_000;

/** HubSpot's CRM search: about four requests a second per token (its changelog, "CRM Search API rate limit increase"). */
const PAGE_GAP_MS: Record<ExcludableCrm, number> = { hubspot: 250, salesforce: 0, pipedrive: 0 };
/** A 429 asking for longer than this ends the attempt instead of holding the activity. */
const MAX_WAIT_IN_RUN_S = 30;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type CrmSyncOutcome =
  | { state: 'synced'; records: number; full: boolean }
  | { state: 'broken' | 'failed'; error: string }
  | { state: 'gone' };

export interface CrmSyncStatus {
  connectionId: string;
  provider: CrmProvider;
  connectionStatus: 'connected' | 'broken';
  brokenReason: string | null;
  lastRunAt: string | null;
  lastSuccessAt: string | null;
  /** Distinct emails and domains held for the connection now. */
  emails: number;
  domains: number;
  error: string | null;
}

interface ConnectionRow {
  id: string;
  account_id: string;
  provider: CrmProvider;
}

interface SyncRow {
  cursors: Record<string, string>;
  full_sync_started_at: Date | null;
  last_full_sync_at: Date | null;
}

/**
 * The sync of a CRM connection's contact emails and company domains into `crm_records`, read
 * by the evaluation so that excluding costs no vendor call per lead. Each stream (HubSpot
 * contacts and companies, Salesforce Contacts, Leads and Accounts, Pipedrive persons and
 * organizations) is read from its cursor, the newest last-modified time stored, page by page;
 * each page commits with its cursor, so a run stopped halfway goes on from there. Tokens come
 * from the connection and its refresh (once more after a 401); a refused refresh marks the
 * connection broken, and the sync says so and keeps the records it has
 * (docs/decisions/integrations.md, "Exclusions from the customer's CRM").
 */
export class CrmRecordSync {
  constructor(
    private readonly db: DataSource,
    private readonly connections: Pick<CrmConnections, 'accessFor'>,
    private readonly config: Pick<Config, 'HUBSPOT_API_URL' | 'WEBHOOK_TIMEOUT_MS'>,
    /** Records deleted or changed may lift an exclusion: the account's signals are told (docs/decisions/wake-on-arrival.md). */
    private readonly arrivals?: Pick<ArrivalAnnouncements, 'tell'>,
  ) {}

  async run(connectionId: string, progress: () => void = () => undefined): Promise<CrmSyncOutcome> {
    const connection = await firstRow<ConnectionRow>(
      this.db,
      `SELECT id, account_id, provider FROM crm_connections WHERE id = $1`,
      [connectionId],
    );
    if (!connection || !isExcludableCrm(connection.provider)) return { state: 'gone' };
    await execute(this.db, `INSERT INTO crm_syncs (connection_id) VALUES ($1) ON CONFLICT DO NOTHING`, [connectionId]);
    const due = `full_sync_started_at IS NULL AND (last_full_sync_at IS NULL OR last_full_sync_at < now() - $2::interval)`;
    const [sync] = (
      await changed<SyncRow>(
        this.db,
        // A full read starts afresh from no cursor; one interrupted goes on where it stopped.
        `UPDATE crm_syncs SET last_run_at = now(), updated_at = now(),
         full_sync_started_at = CASE WHEN ${due} THEN now() ELSE full_sync_started_at END,
         cursors = CASE WHEN ${due} THEN '{}'::jsonb ELSE cursors END
       WHERE connection_id = $1 RETURNING cursors, full_sync_started_at, last_full_sync_at`,
        [connectionId, `${FULL_SYNC_EVERY_MS} milliseconds`],
      )
    ).rows;
    if (!sync) return { state: 'gone' };
    try {
      let records = 0;
      for (const stream of this.readerFor(connection.provider, null).streams) {
        records += await this.syncStream(connection, stream, sync.cursors[stream] ?? null, progress);
      }
      const full = sync.full_sync_started_at !== null;
      if (full) {
        // What the full read did not see again is gone from the CRM.
        const gone = await changed(this.db, `DELETE FROM crm_records WHERE connection_id = $1 AND synced_at < $2`, [
          connectionId,
          sync.full_sync_started_at,
        ]);
        if (gone.count > 0) this.tellExclusionsLifted(connection);
      }
      await execute(
        this.db,
        `UPDATE crm_syncs SET last_success_at = now(), last_error = NULL, updated_at = now()
           ${full ? ', last_full_sync_at = full_sync_started_at, full_sync_started_at = NULL' : ''}
         WHERE connection_id = $1`,
        [connectionId],
      );
      return { state: 'synced', records, full };
    } catch (err) {
      // The connection's words are written for a push ("not sent: ..."); the sync shows the reason alone.
      const message = (err instanceof Error ? err.message : String(err)).replace(/^not sent: /, '');
      await execute(this.db, `UPDATE crm_syncs SET last_error = $2, updated_at = now() WHERE connection_id = $1`, [
        connectionId,
        message,
      ]);
      if (err instanceof ConnectionBroken) return { state: 'broken', error: message };
      // A 429, a 5xx or a timeout: the run's activity tries again (at the vendor's Retry-After) from the cursor.
      if (err instanceof OutboundHttpError && err.retryable) throw err;
      if (err instanceof OutboundHttpError) return { state: 'failed', error: message };
      throw err;
    }
  }

  /** Each CRM connection of the account with its sync: last run, records held, the error if any. */
  async statusOf(accountId: string): Promise<CrmSyncStatus[]> {
    const found = await rows<{
      id: string;
      provider: CrmProvider;
      status: 'connected' | 'broken';
      broken_reason: string | null;
      last_run_at: Date | null;
      last_success_at: Date | null;
      last_error: string | null;
      emails: number;
      domains: number;
    }>(
      this.db,
      `SELECT c.id, c.provider, c.status, c.broken_reason, s.last_run_at, s.last_success_at, s.last_error,
         (SELECT count(DISTINCT value)::int FROM crm_records r WHERE r.connection_id = c.id AND r.kind = 'email') AS emails,
         (SELECT count(DISTINCT value)::int FROM crm_records r WHERE r.connection_id = c.id AND r.kind = 'domain') AS domains
       FROM crm_connections c LEFT JOIN crm_syncs s ON s.connection_id = c.id
       WHERE c.account_id = $1 AND c.provider = ANY($2::text[]) ORDER BY c.created_at, c.id`,
      [accountId, [...EXCLUDABLE_CRMS]],
    );
    return found.map((row) => ({
      connectionId: row.id,
      provider: row.provider,
      connectionStatus: row.status,
      brokenReason: row.broken_reason,
      lastRunAt: row.last_run_at?.toISOString() ?? null,
      lastSuccessAt: row.last_success_at?.toISOString() ?? null,
      emails: row.emails,
      domains: row.domains,
      error: row.status === 'broken' ? (row.broken_reason ?? row.last_error) : row.last_error,
    }));
  }

  private async syncStream(
    connection: ConnectionRow,
    stream: string,
    cursor: string | null,
    progress: () => void,
  ): Promise<number> {
    let since = cursor ? new Date(cursor) : null;
    let next: string | null = null;
    let records = 0;
    for (;;) {
      const page = await this.paced(connection.provider, progress, () =>
        this.withAccess(connection, (reader, token) => reader.page(token, stream, since, next)),
      );
      const newest = await this.store(connection, stream, page.records);
      records += page.records.length;
      progress();
      if (page.next) next = page.next;
      else if (page.capped && newest && (!since || newest > since)) {
        since = newest;
        next = null;
      } else return records;
    }
  }

  /**
   * One page within the vendor's rate limits: HubSpot's search allows a few requests a second,
   * so its pages are spaced; a 429 with a short wait is waited out here and the page asked
   * again (a long one, or a third in a row, ends the run's attempt, whose retry resumes from
   * the cursor).
   */
  private async paced<T>(provider: CrmProvider, progress: () => void, read: () => Promise<T>): Promise<T> {
    const gap = PAGE_GAP_MS[provider as ExcludableCrm] ?? 0;
    for (let throttled = 0; ; throttled++) {
      const started = Date.now();
      try {
        const page = await read();
        const left = gap - (Date.now() - started);
        if (left > 0) await sleep(left);
        return page;
      } catch (err) {
        const wait = err instanceof OutboundHttpError && err.status === 429 ? err.retryAfterSeconds : undefined;
        if (wait === undefined || wait > MAX_WAIT_IN_RUN_S || throttled >= 2) throw err;
        progress();
        await sleep(wait * 1000);
      }
    }
  }

  /**
   * A page's records replace what each vendor record held, and the stream's cursor moves, in one
   * transaction; a value a record no longer holds tells the account's signals after the commit.
   */
  private async store(connection: ConnectionRow, stream: string, records: CrmRecord[]): Promise<Date | null> {
    if (records.length === 0) return null;
    const connectionId = connection.id;
    const values: { vendorId: string; kind: string; value: string; modifiedAt: string | null }[] = [];
    for (const record of records) {
      for (const raw of record.values) {
        const normal = normaliseSuppression(record.kind, raw);
        if ('value' in normal)
          values.push({
            vendorId: record.vendorId,
            kind: record.kind,
            value: normal.value,
            modifiedAt: record.modifiedAt,
          });
      }
    }
    const newest = records
      .map((r) => r.modifiedAt)
      .filter((m): m is string => m !== null)
      .sort()
      .at(-1);
    const lifted = await this.db.transaction(async (tx) => {
      const replaced = await changed<{ vendor_id: string; kind: string; value: string }>(
        tx,
        `DELETE FROM crm_records WHERE connection_id = $1 AND vendor_id = ANY($2::text[]) RETURNING vendor_id, kind, value`,
        [connectionId, records.map((r) => r.vendorId)],
      );
      await execute(
        tx,
        `INSERT INTO crm_records (connection_id, vendor_id, kind, value, modified_at)
         SELECT $1, v.vendor_id, v.kind, v.value, v.modified_at
         FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS v(vendor_id, kind, value, modified_at)
         ON CONFLICT DO NOTHING`,
        [
          connectionId,
          values.map((v) => v.vendorId),
          values.map((v) => v.kind),
          values.map((v) => v.value),
          values.map((v) => v.modifiedAt),
        ],
      );
      if (newest)
        await execute(
          tx,
          `UPDATE crm_syncs SET cursors = cursors || jsonb_build_object($2::text, $3::text), updated_at = now()
           WHERE connection_id = $1 AND coalesce((cursors->>$2)::timestamptz, '-infinity') < $4::timestamptz`,
          [connectionId, stream, newest, newest],
        );
      const kept = new Set(values.map((v) => JSON.stringify([v.vendorId, v.kind, v.value])));
      return replaced.rows.some((row) => !kept.has(JSON.stringify([row.vendor_id, row.kind, row.value])));
    });
    if (lifted) this.tellExclusionsLifted(connection);
    return newest ? new Date(newest) : null;
  }

  /** Conservative: any value gone from the connection's records may let a held lead through. */
  private tellExclusionsLifted(connection: ConnectionRow): void {
    this.arrivals?.tell({ accountId: connection.account_id });
  }

  /** One vendor call with the connection's token; a 401 refreshes it once and calls again. */
  private async withAccess<T>(
    connection: ConnectionRow,
    call: (reader: CrmRecordReader, token: string) => Promise<T>,
  ): Promise<T> {
    const attempt = async (after401: boolean) => {
      const access = await this.connections.accessFor(
        connection.account_id,
        connection.provider,
        connection.id,
        after401,
      );
      return call(this.readerFor(connection.provider, access), access.accessToken);
    };
    try {
      return await attempt(false);
    } catch (err) {
      if (!(err instanceof OutboundHttpError && err.status === 401)) throw err;
      return attempt(true);
    }
  }

  private readerFor(provider: CrmProvider, access: CrmAccess | null): CrmRecordReader {
    const at = (baseUrl: string | null) => {
      if (access && !baseUrl)
        throw new ConnectionBroken(`the ${provider} connection names no API address; reconnect it in the dashboard`);
      return { baseUrl: baseUrl ?? 'https://unset.invalid', timeoutMs: this.config.WEBHOOK_TIMEOUT_MS };
    };
    switch (provider) {
      case 'hubspot':
        return new HubSpotRecords(at(this.config.HUBSPOT_API_URL));
      case 'salesforce':
        return new SalesforceRecords(at(access?.apiBaseUrl ?? null));
      case 'pipedrive':
        return new PipedriveRecords(at(access?.apiBaseUrl ?? null));
      default:
        throw new Error(`${provider} holds no contacts to exclude`);
    }
  }
}
