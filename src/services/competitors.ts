import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { changed, execute, firstRow, rows } from '../db/sql';
import { isBlueskyHandle, registrableDomain } from '../catalogue/identifiers';
import { conflict, fieldProblemsOf, notFound, validationError } from '../errors';
import type { ArrivalAnnouncements } from './signals/arrivals';

/** Most competitors one account lists: each is read by the bluesky source on every run. */
export const MAX_COMPETITORS_PER_ACCOUNT = 200;
/** Most Bluesky accounts one competitor names (a company's main account and a few of its brands). */
export const MAX_HANDLES_PER_COMPETITOR = 10;

/**
 * A Bluesky handle as its owners write it (`acme.com`, `@acme.bsky.social`), kept lower case
 * without the `@`: atproto's handle syntax (src/catalogue/identifiers.ts).
 */
export const blueskyHandle = z
  .string()
  .trim()
  .max(253)
  .transform((h) => h.replace(/^@/, '').toLowerCase())
  .refine(isBlueskyHandle, {
    message: 'must be a Bluesky handle such as acme.com or acme.bsky.social',
  });

const competitorName = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .refine((text) => !text.includes('\u0000'), 'must not contain a NUL character');
const competitorDomain = z
  .string()
  .trim()
  .max(2000)
  .transform((text, ctx) => {
    const host = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0] ?? '';
    const domain = registrableDomain(host);
    if (!domain) {
      ctx.addIssue({ code: 'custom', message: 'must be a domain or website such as acme.com' });
      return z.NEVER;
    }
    return domain;
  });

/** A competitor as every way in takes it (REST, the tool, the dashboard). */
export const competitorInput = z.strictObject({
  name: competitorName,
  domain: competitorDomain,
  blueskyHandles: z.array(blueskyHandle).max(MAX_HANDLES_PER_COMPETITOR).optional(),
});
export const competitorChanges = competitorInput.partial();

export type CompetitorInput = z.input<typeof competitorInput>;
export type CompetitorChanges = z.input<typeof competitorChanges>;

export interface Competitor {
  id: string;
  name: string;
  domain: string;
  blueskyHandles: string[];
  createdAt: string;
  updatedAt: string;
}

interface CompetitorRow {
  id: string;
  name: string;
  domain: string;
  bluesky_handles: string[];
  created_at: Date;
  updated_at: Date;
}

const toCompetitor = (row: CompetitorRow): Competitor => ({
  id: row.id,
  name: row.name,
  domain: row.domain,
  blueskyHandles: row.bluesky_handles,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const domainTaken = (domain: string) =>
  conflict('COMPETITOR_EXISTS', `The account lists a competitor at ${domain} already; change that one instead`);

/**
 * An account's competitors: the companies whose social audience it wants to hear about. The
 * account watchlist reads them (competitor_social_reactions, competitor_connections) by domain,
 * and the bluesky source reads their accounts (docs/dashboard-and-api.md, "Competitors").
 */
export class Competitors {
  constructor(
    private readonly db: DataSource,
    /** A competitor added, changed or removed wakes the account's watchlists, which read competitors by domain. */
    private readonly arrivals?: Pick<ArrivalAnnouncements, 'tell'>,
    private readonly limit = MAX_COMPETITORS_PER_ACCOUNT,
  ) {}

  private tellWatchlists(accountId: string): void {
    this.arrivals?.tell({ accountId, signalTypeId: 'account_watchlist' });
  }

  async list(
    accountId: string,
    query: { limit: number; offset: number },
  ): Promise<{ items: Competitor[]; total: number; limit: number; offset: number; hasMore: boolean }> {
    const found = await rows<CompetitorRow>(
      this.db,
      `SELECT * FROM competitors WHERE account_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [accountId, query.limit, query.offset],
    );
    const counted = await firstRow<{ total: number }>(
      this.db,
      `SELECT count(*)::int AS total FROM competitors WHERE account_id = $1`,
      [accountId],
    );
    const total = counted?.total ?? 0;
    return {
      items: found.map(toCompetitor),
      total,
      limit: query.limit,
      offset: query.offset,
      hasMore: query.offset + found.length < total,
    };
  }

  async get(accountId: string, competitorId: string): Promise<Competitor> {
    const row = await firstRow<CompetitorRow>(this.db, `SELECT * FROM competitors WHERE account_id = $1 AND id = $2`, [
      accountId,
      competitorId,
    ]);
    if (!row) throw notFound('Competitor');
    // A new domain is a competitor added as much as one removed.
    this.tellWatchlists(accountId);
    return toCompetitor(row);
  }

  async create(accountId: string, input: CompetitorInput): Promise<Competitor> {
    const competitor = this.checked(competitorInput, input);
    const handles = [...new Set(competitor.blueskyHandles ?? [])];
    const created = await this.db.transaction(async (tx) => {
      // One account's additions queue on its row, so the limit holds under concurrent calls.
      await execute(tx, `SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]);
      const [{ count }] = await rows<{ count: number }>(
        tx,
        `SELECT count(*)::int AS count FROM competitors WHERE account_id = $1`,
        [accountId],
      );
      if (count >= this.limit)
        throw conflict('COMPETITOR_LIMIT_REACHED', `An account lists at most ${this.limit} competitors`);
      const [row] = await rows<CompetitorRow>(
        tx,
        `INSERT INTO competitors (id, account_id, name, domain, bluesky_handles) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id, domain) DO NOTHING RETURNING *`,
        [randomUUID(), accountId, competitor.name, competitor.domain, handles],
      );
      if (!row) throw domainTaken(competitor.domain);
      return toCompetitor(row);
    });
    this.tellWatchlists(accountId);
    return created;
  }

  async update(accountId: string, competitorId: string, changes: CompetitorChanges): Promise<Competitor> {
    const patch = this.checked(competitorChanges, changes);
    const current = await this.get(accountId, competitorId);
    const next = {
      name: patch.name ?? current.name,
      domain: patch.domain ?? current.domain,
      handles: patch.blueskyHandles ? [...new Set(patch.blueskyHandles)] : current.blueskyHandles,
    };
    const taken = await firstRow<{ id: string }>(
      this.db,
      `SELECT id FROM competitors WHERE account_id = $1 AND domain = $2 AND id <> $3`,
      [accountId, next.domain, competitorId],
    );
    if (taken) throw domainTaken(next.domain);
    const {
      rows: [row],
    } = await changed<CompetitorRow>(
      this.db,
      `UPDATE competitors SET name = $3, domain = $4, bluesky_handles = $5, updated_at = now()
       WHERE account_id = $1 AND id = $2 RETURNING *`,
      [accountId, competitorId, next.name, next.domain, next.handles],
    );
    if (!row) throw notFound('Competitor');
    // A new domain is a competitor added as much as one removed.
    this.tellWatchlists(accountId);
    return toCompetitor(row);
  }

  async remove(accountId: string, competitorId: string): Promise<void> {
    const gone = await changed(this.db, `DELETE FROM competitors WHERE account_id = $1 AND id = $2`, [
      accountId,
      competitorId,
    ]);
    if (gone.count === 0) throw notFound('Competitor');
    this.tellWatchlists(accountId);
  }

  /** The tool and the dashboard hand over unchecked input: the same schema words their errors. */
  private checked<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
    const parsed = schema.safeParse(input);
    if (!parsed.success) throw validationError(fieldProblemsOf(parsed.error));
    return parsed.data;
  }
}
