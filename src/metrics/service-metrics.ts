import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { rows } from '../db/sql';

const PREFIX = 'intent_leads_';

/**
 * What an operator scrapes from each process, in its own registry (not prom-client's global
 * one, so several stacks in one test process stay apart). Two kinds:
 * - this process's events: delivery attempts by route and outcome, leads produced, evaluation
 *   lag (worker processes), and the Node.js process's own figures;
 * - the service's state, read from PostgreSQL at scrape time (the same in every process:
 *   aggregate with max(), not sum()): deliveries by route and status, the retry backlog,
 *   leads and credits charged by operation.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly attempts = new Counter({
    name: `${PREFIX}delivery_attempts_total`,
    help: 'Delivery attempts made by this process, by route (webhook, sequencer or CRM name) and outcome',
    labelNames: ['route', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly produced = new Counter({
    name: `${PREFIX}leads_produced_total`,
    help: 'Leads produced (and charged) by this process',
    registers: [this.registry],
  });
  private readonly lag = new Histogram({
    name: `${PREFIX}evaluation_lag_seconds`,
    help: 'How late a scheduled signal evaluation started, from its due time to its first production batch',
    buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });

  constructor(db?: DataSource) {
    if (db) this.addServiceState(db);
  }

  /** Node.js process figures (memory, event loop, GC); only where the metrics are served. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
  }

  deliveryAttempted(route: string, outcome: string): void {
    this.attempts.inc({ route, outcome });
  }

  leadsProduced(count: number): void {
    if (count > 0) this.produced.inc(count);
  }

  evaluationStarted(lateByMs: number): void {
    this.lag.observe(Math.max(0, lateByMs) / 1000);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  private addServiceState(db: DataSource): void {
    const registers = [this.registry];
    new Gauge({
      name: `${PREFIX}deliveries`,
      help: 'Deliveries of leads by route and status (service-wide, from PostgreSQL)',
      labelNames: ['route', 'status'] as const,
      registers,
      async collect() {
        this.reset();
        const counts = await rows<{ route: string; status: string; n: number }>(
          db,
          `SELECT route, status, count(*)::int AS n FROM deliveries WHERE kind = 'lead' GROUP BY route, status`,
        );
        for (const row of counts) this.set({ route: row.route, status: row.status }, row.n);
      },
    });
    new Gauge({
      name: `${PREFIX}delivery_retry_backlog`,
      help: 'Deliveries waiting for a retry after a failed attempt (service-wide, from PostgreSQL)',
      labelNames: ['route'] as const,
      registers,
      async collect() {
        this.reset();
        const counts = await rows<{ route: string; n: number }>(
          db,
          `SELECT route, count(*)::int AS n FROM deliveries WHERE status = 'pending' AND attempts > 0 GROUP BY route`,
        );
        for (const row of counts) this.set({ route: row.route }, row.n);
      },
    });
    new Gauge({
      name: `${PREFIX}leads`,
      help: 'Leads produced so far (service-wide, from PostgreSQL)',
      registers,
      async collect() {
        const [{ n }] = await rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM leads`);
        this.set(n);
      },
    });
    new Gauge({
      name: `${PREFIX}credits_charged`,
      help: 'Credits charged so far, by operation (service-wide, from the credit ledger)',
      labelNames: ['operation'] as const,
      registers,
      async collect() {
        this.reset();
        const charged = await rows<{ operation: string; credits: number }>(
          db,
          `SELECT operation, sum(-credits)::float AS credits FROM credit_ledger WHERE credits < 0 GROUP BY operation`,
        );
        for (const row of charged) this.set({ operation: row.operation }, row.credits);
      },
    });
    // Per intent source: what it has ingested, left out by its rules, and the errors it has met so far.
    for (const [metric, column, help] of [
      ['source_records', 'records_ingested', 'Records an intent source has ingested so far, by source'],
      [
        'source_dropped',
        'records_dropped',
        'Records an intent source has read and left out by its rules so far, by source',
      ],
      ['source_errors', 'errors_count', 'Errors an intent source has met so far (a board, a page), by source'],
    ] as const) {
      new Gauge({
        name: `${PREFIX}${metric}`,
        help: `${help} (service-wide, from PostgreSQL)`,
        labelNames: ['source'] as const,
        registers,
        async collect() {
          this.reset();
          const counts = await rows<{ name: string; n: number }>(db, `SELECT name, ${column}::float AS n FROM sources`);
          for (const row of counts) this.set({ source: row.name }, row.n);
        },
      });
    }
  }
}
