import type { EntityManager } from 'typeorm';
import { execute } from '../../db/sql';
import { destinationRoutesOf } from '../../destinations/settings';
import { webhookRoutesOf } from '../../destinations/webhook';

export interface RoutedSignal {
  id: string;
  accountId: string;
  webhookUrl: string | null;
  destinations: Record<string, unknown> | null;
}

/**
 * One pending delivery per route of each new lead (its signal's webhook, and each destination
 * as the signal names it now), inside the transaction that inserts the leads: a lead that
 * exists has its deliveries, and their ids (the stable `X-Webhook-Id`) are known before its
 * workflow starts. A destination changed later applies to leads produced later.
 */
export async function planLeadDeliveries(tx: EntityManager, signal: RoutedSignal, leadIds: string[]): Promise<void> {
  const routes = [...webhookRoutesOf(signal.webhookUrl), ...destinationRoutesOf(signal.destinations)];
  if (routes.length === 0 || leadIds.length === 0) return;
  // The integration must still be this account's, else the attempt resolves it (or fails).
  await execute(
    tx,
    `INSERT INTO deliveries (id, lead_id, signal_id, account_id, route, target, kind, integration_id, crm_connection_id)
     SELECT gen_random_uuid(), l.id, $2, $3, r.route, r.target, 'lead',
       (SELECT id FROM integrations WHERE id::text = r.integration_id AND account_id = $3 AND provider = r.route),
       (SELECT id FROM crm_connections WHERE id::text = r.integration_id AND account_id = $3 AND provider = r.route)
     FROM unnest($1::uuid[]) AS l(id)
     CROSS JOIN unnest($4::text[], $5::text[], $6::text[]) AS r(route, target, integration_id)
     ON CONFLICT (lead_id, route, kind) WHERE kind = 'lead' DO NOTHING`,
    [
      leadIds,
      signal.id,
      signal.accountId,
      routes.map((r) => r.route),
      routes.map((r) => r.target),
      routes.map((r) => r.integrationId),
    ],
  );
}

/** SQL for a lead's deliveries as its workflow gets them (`leads` in scope): webhook first. */
export const LEAD_DELIVERIES_SQL = `(SELECT coalesce(json_agg(json_build_object('deliveryId', d.id, 'route', d.route)
    ORDER BY d.route <> 'webhook', d.route), '[]'::json)
  FROM deliveries d WHERE d.lead_id = leads.id AND d.kind = 'lead')`;
