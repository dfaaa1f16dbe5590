import { DataSource } from 'typeorm';
import { firstRow, rows } from '../db/sql';
import { notFound } from '../errors';
import type { DeliveryStatus } from './deliveries/deliveries';

export interface DeliveryAttemptEntry {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface LoggedLead {
  id: string;
  createdAt: string;
  /** The lead as delivered (the specification's Lead resource). */
  payload: { signal: Record<string, unknown>; contact: '' | Record<string, unknown>; company: Record<string, unknown> };
  deliveries: LeadDelivery[];
}

export interface LeadDelivery {
  id: string;
  leadId: string;
  route: string;
  kind: 'lead' | 'replay';
  status: string;
  nextAttemptAt: string | null;
  attempts: DeliveryAttemptEntry[];
}

export interface DeliveryListQuery {
  status?: DeliveryStatus;
  leadId?: string;
  limit: number;
  offset: number;
}

/** One row of `GET /signals/{id}/deliveries`. */
export interface DeliveryItem {
  id: string;
  leadId: string | null;
  route: string;
  kind: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/**
 * A signal's deliveries, and every attempt of every delivery of some leads: the answer to "did
 * my lead arrive, and if not why". A read over what the delivery service records; the account
 * is part of the query, so another account's signals and leads answer nothing.
 */
export class DeliveryLog {
  constructor(private readonly db: DataSource) {}

  /** A page of the signal's deliveries (tests and replays too), newest first; 404 when the signal is not the account's. */
  async deliveries(accountId: string, signalId: string, query: DeliveryListQuery) {
    const signal = await firstRow<{ id: string }>(
      this.db,
      `SELECT id FROM signals WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
      [signalId, accountId],
    );
    if (!signal) throw notFound('Signal');
    const where = ['signal_id = $1'];
    const params: unknown[] = [signalId];
    if (query.status) where.push(`status = $${params.push(query.status)}`);
    if (query.leadId) where.push(`lead_id = $${params.push(query.leadId)}`);
    const filter = where.join(' AND ');
    const [{ total }] = await rows<{ total: number }>(
      this.db,
      `SELECT count(*)::int AS total FROM deliveries WHERE ${filter}`,
      params,
    );
    const deliveries = await rows<{
      id: string;
      lead_id: string | null;
      route: string;
      kind: string;
      status: DeliveryStatus;
      attempts: number;
      last_status_code: number | null;
      last_error: string | null;
      next_attempt_at: Date | null;
      created_at: Date;
    }>(
      this.db,
      `SELECT id, lead_id, route, kind, status, attempts, last_status_code, last_error, next_attempt_at, created_at
       FROM deliveries WHERE ${filter} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.limit, query.offset],
    );
    const items: DeliveryItem[] = deliveries.map((r) => ({
      id: r.id,
      leadId: r.lead_id,
      route: r.route,
      kind: r.kind,
      status: r.status,
      attempts: r.attempts,
      lastStatusCode: r.last_status_code,
      lastError: r.last_error,
      nextAttemptAt: r.next_attempt_at ? new Date(r.next_attempt_at).toISOString() : null,
      createdAt: new Date(r.created_at).toISOString(),
    }));
    return { items, total, limit: query.limit, offset: query.offset, hasMore: query.offset + items.length < total };
  }

  /**
   * A page of the signal's leads, newest first, each with its deliveries and their attempts;
   * null when the signal is not the account's (or deleted).
   */
  async page(
    accountId: string,
    signalId: string,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; leads: LoggedLead[] } | null> {
    const signal = await firstRow<{ leads_total: number }>(
      this.db,
      `SELECT leads_total FROM signals WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
      [signalId, accountId],
    );
    if (!signal) return null;
    const leads = await rows<{ id: string; created_at: Date; payload: LoggedLead['payload'] }>(
      this.db,
      `SELECT id, created_at, payload FROM leads WHERE signal_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [signalId, page.limit, page.offset],
    );
    const deliveries = await this.ofLeads(
      accountId,
      leads.map((r) => r.id),
    );
    return {
      total: Number(signal.leads_total),
      leads: leads.map((r) => ({
        id: r.id,
        createdAt: r.created_at.toISOString(),
        payload: r.payload,
        deliveries: deliveries.get(r.id) ?? [],
      })),
    };
  }

  async ofLeads(accountId: string, leadIds: string[]): Promise<Map<string, LeadDelivery[]>> {
    const byLead = new Map<string, LeadDelivery[]>(leadIds.map((id) => [id, []]));
    if (leadIds.length === 0) return byLead;
    // Attempts as JSON: each `at` is PostgreSQL's text of the timestamp, made ISO below.
    const deliveries = await rows<{
      id: string;
      lead_id: string;
      route: string;
      kind: 'lead' | 'replay';
      status: string;
      next_attempt_at: Date | null;
      attempts: DeliveryAttemptEntry[];
    }>(
      this.db,
      `SELECT d.id, d.lead_id, d.route, d.kind, d.status, d.next_attempt_at,
              coalesce(json_agg(json_build_object('attempt', a.attempt, 'at', a.at, 'statusCode', a.status_code,
                                                  'error', a.error, 'durationMs', a.duration_ms) ORDER BY a.attempt, a.id)
                       FILTER (WHERE a.id IS NOT NULL), '[]') AS attempts
         FROM deliveries d LEFT JOIN delivery_attempts a ON a.delivery_id = d.id
        WHERE d.account_id = $1 AND d.lead_id = ANY($2::uuid[])
        GROUP BY d.id ORDER BY d.created_at, d.id`,
      [accountId, leadIds],
    );
    for (const row of deliveries) {
      byLead.get(row.lead_id)?.push({
        id: row.id,
        leadId: row.lead_id,
        route: row.route,
        kind: row.kind,
        status: row.status,
        nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
        attempts: row.attempts.map((a) => ({
          ...a,
          at: new Date(a.at).toISOString(),
        })),
      });
    }
    return byLead;
  }
}
