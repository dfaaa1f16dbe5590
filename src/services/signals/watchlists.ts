import type { DataSource, EntityManager } from 'typeorm';
import { execute, rows } from '../../db/sql';
import type { CompanyEntry } from '../../signal-types/kit/config';
import type { ArrivalAnnouncements } from './arrivals';
import { normaliseEntry, type WatchlistEntry } from './watchlist-entries';

export interface ImportResult {
  /** Entries added by this upload. watched + rejected + alreadyWatched = entries submitted. */
  watched: number;
  rejected: number;
  alreadyWatched: number;
}

interface KnownIdentifiers {
  urls: Set<string>;
  domains: Set<string>;
  names: Set<string>;
}

/** An entry is already watched when its strongest identifier is: URL if it has one, else domain, else name. */
function alreadyKnown(entry: WatchlistEntry, known: KnownIdentifiers): boolean {
  if (entry.linkedinUrl) return known.urls.has(entry.linkedinUrl);
  if (entry.domain) return known.domains.has(entry.domain);
  return entry.nameKey !== null && known.names.has(entry.nameKey);
}

function remember(entry: WatchlistEntry, known: KnownIdentifiers): void {
  if (entry.linkedinUrl) known.urls.add(entry.linkedinUrl);
  if (entry.domain) known.domains.add(entry.domain);
  if (entry.nameKey) known.names.add(entry.nameKey);
}

export class Watchlists {
  constructor(
    private readonly db: DataSource,
    /** Entries added or removed wake their signal: no written row announces them (docs/decisions/wake-on-arrival.md). */
    private readonly arrivals?: Pick<ArrivalAnnouncements, 'tell'>,
  ) {}

  /** Adds entries to a signal's watchlist in a transaction of its own (the REST route and the tool). */
  async add(signalId: string, entries: CompanyEntry[]): Promise<ImportResult> {
    const result = await this.db.transaction((tx) => this.import(tx, signalId, entries));
    // After the commit; `import` inside a signal's create or update is followed by that signal's own message.
    if (result.watched > 0) this.arrivals?.tell({ signalIds: [signalId] });
    return result;
  }

  /** Adds entries to a signal's watchlist inside the caller's transaction; the signal row is locked so imports serialise. */
  async import(tx: EntityManager, signalId: string, entries: CompanyEntry[]): Promise<ImportResult> {
    await execute(tx, `SELECT id FROM signals WHERE id = $1 FOR UPDATE`, [signalId]);
    const existing = await rows<{ linkedin_url: string | null; domain: string | null; name_key: string | null }>(
      tx,
      `SELECT linkedin_url, domain, name_key FROM watched_companies WHERE signal_id = $1`,
      [signalId],
    );
    const known: KnownIdentifiers = { urls: new Set(), domains: new Set(), names: new Set() };
    for (const row of existing) {
      remember({ linkedinUrl: row.linkedin_url, domain: row.domain, nameKey: row.name_key } as WatchlistEntry, known);
    }
    const result: ImportResult = { watched: 0, rejected: 0, alreadyWatched: 0 };
    const fresh: WatchlistEntry[] = [];
    for (const raw of entries) {
      const entry = normaliseEntry(raw);
      if (!entry) result.rejected++;
      else if (alreadyKnown(entry, known)) result.alreadyWatched++;
      else {
        remember(entry, known);
        fresh.push(entry);
      }
    }
    if (fresh.length > 0) {
      const inserted = await rows<{ id: string }>(
        tx,
        `INSERT INTO watched_companies (signal_id, kind, name, domain, linkedin_url, name_key, identity)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         ON CONFLICT (signal_id, identity) DO NOTHING
         RETURNING id`,
        [
          signalId,
          fresh.map((e) => e.kind),
          fresh.map((e) => e.name),
          fresh.map((e) => e.domain),
          fresh.map((e) => e.linkedinUrl),
          fresh.map((e) => e.nameKey),
          fresh.map((e) => e.identity),
        ],
      );
      result.watched = inserted.length;
      result.alreadyWatched += fresh.length - inserted.length;
    }
    return result;
  }

  async count(signalId: string, tx: EntityManager = this.db.manager): Promise<number> {
    const [{ n }] = await rows<{ n: number }>(
      tx,
      `SELECT count(*)::int AS n FROM watched_companies WHERE signal_id = $1`,
      [signalId],
    );
    return n;
  }

  async list(signalId: string, page: { limit: number; offset: number }) {
    const total = await this.count(signalId);
    const watched = await rows<{
      id: string;
      name: string | null;
      domain: string | null;
      linkedin_url: string | null;
      added_at: Date;
    }>(
      this.db,
      `SELECT id, name, domain, linkedin_url, added_at FROM watched_companies WHERE signal_id = $1
       ORDER BY added_at, id LIMIT $2 OFFSET $3`,
      [signalId, page.limit, page.offset],
    );
    const items = watched.map((row) => ({
      id: row.id,
      name: row.name,
      domain: row.domain,
      linkedinUrl: row.linkedin_url,
      addedAt: row.added_at.toISOString(),
    }));
    return { items, total, limit: page.limit, offset: page.offset, hasMore: page.offset + items.length < total };
  }

  /** Removes by entry id and by the same identifiers an upload would match. */
  async remove(
    signalId: string,
    selection: { ids?: string[]; companies?: CompanyEntry[] },
  ): Promise<{ removed: number }> {
    const entries = (selection.companies ?? []).map(normaliseEntry).filter((e): e is WatchlistEntry => Boolean(e));
    // Counted in SQL: TypeORM answers a bare DELETE ... RETURNING as [rows, rowCount], not as rows.
    const [{ removed }] = await rows<{ removed: number }>(
      this.db,
      `WITH removed AS (
         DELETE FROM watched_companies WHERE signal_id = $1 AND (
           id = ANY($2::uuid[]) OR linkedin_url = ANY($3::text[])
           OR (linkedin_url IS NULL AND domain = ANY($4::text[]))
           OR (linkedin_url IS NULL AND domain IS NULL AND name_key = ANY($5::text[]))
         ) RETURNING id
       )
       SELECT count(*)::int AS removed FROM removed`,
      [
        signalId,
        selection.ids ?? [],
        entries.filter((e) => e.linkedinUrl).map((e) => e.linkedinUrl),
        entries.filter((e) => !e.linkedinUrl && e.domain).map((e) => e.domain),
        entries.filter((e) => !e.linkedinUrl && !e.domain && e.nameKey).map((e) => e.nameKey),
      ],
    );
    if (removed > 0) this.arrivals?.tell({ signalIds: [signalId] });
    return { removed };
  }
}
