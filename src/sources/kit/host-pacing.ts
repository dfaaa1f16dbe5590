import type { DataSource } from 'typeorm';
import { execute, rows } from '../../db/sql';

/**
 * Hosts whose owners publish their own rate: one request per this many milliseconds, across
 * every worker. Every other host gets SOURCES_HOST_INTERVAL_MS.
 */
export const HOST_INTERVALS_MS: Readonly<Record<string, number>> = {
  // SEC EDGAR fair access: at most 10 requests per second per user, however many machines.
  'www.sec.gov': 100,
  // Companies House REST: 600 requests per 5 minutes per key.
  'api.company-information.service.gov.uk': 500,
};

/**
 * Each host's next allowed request (table `source_hosts`), claimed in one statement so that
 * every worker of the fleet shares one budget per host.
 */
export class HostPacing {
  constructor(private readonly db: DataSource) {}

  /** Claims the host's next slot and answers how long to wait for it. */
  async claim(host: string, intervalMs: number): Promise<number> {
    return (await this.reserve(host, intervalMs)).waitMs;
  }

  /** Claims the host's next slot: when it is (the database's clock) and how long to wait for it. */
  async reserve(host: string, intervalMs: number): Promise<{ slotAt: Date; waitMs: number }> {
    const [slot] = await rows<{ wait_ms: number; slot_at: Date }>(
      this.db,
      `INSERT INTO source_hosts AS h (host, next_allowed_at) VALUES ($1, now() + make_interval(secs => $2::int / 1000.0))
       ON CONFLICT (host) DO UPDATE
         SET next_allowed_at = greatest(now(), h.next_allowed_at) + make_interval(secs => $2::int / 1000.0)
       RETURNING greatest(0, ceil(extract(epoch FROM h.next_allowed_at - make_interval(secs => $2::int / 1000.0) - now()) * 1000))::int AS wait_ms,
                 h.next_allowed_at - make_interval(secs => $2::int / 1000.0) AS slot_at`,
      [host, intervalMs],
    );
    return { slotAt: slot!.slot_at, waitMs: slot!.wait_ms };
  }

  /** A 429: nothing goes to the host before its Retry-After has passed. */
  async holdOff(host: string, ms: number): Promise<void> {
    await execute(
      this.db,
      `INSERT INTO source_hosts AS h (host, next_allowed_at) VALUES ($1, now() + make_interval(secs => $2::int / 1000.0))
       ON CONFLICT (host) DO UPDATE SET next_allowed_at = greatest(h.next_allowed_at, EXCLUDED.next_allowed_at)`,
      [host, Math.max(0, Math.round(ms))],
    );
  }
}
