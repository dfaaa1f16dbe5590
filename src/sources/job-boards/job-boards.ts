import type { DataSource } from 'typeorm';
import { notFound, validationError } from '../../errors';
import { JOB_BOARD_ATS, JOB_BOARD_PLATFORMS, type JobPosting } from './platforms';
import type { EventRecordInput } from '../../providers/data/records';
import type { Ingestion } from '../../services/ingestion/ingestion';
import type { SourceCursor, SourceItemResult, SourceItemsPage } from '../../temporal/contract';
import type { PoliteFetch } from '../kit/polite-fetch';
import { BoardReading } from './board-reading';
import type { DocumentThreads } from '../kit/document-threads';
import { nextPollAt } from './board-phases';
import type { IntentSource } from '../kit/intent-source';
import { execute, firstRow, rows } from '../../db/sql';

/** Boards listed per page of a run. */
const BOARDS_PER_PAGE = 25;
/** An event's text field holds at most this many characters (records.ts). */
const MAX_TEXT = 20_000;
/**
 * A recruitment campaign: at least this many open postings of one company published within
 * {@link BURST_WINDOW_DAYS} days, at most one campaign event per {@link BURST_QUIET_DAYS} days.
 */
export const BURST_POSTINGS = 5;
export const BURST_WINDOW_DAYS = 7;
export const BURST_QUIET_DAYS = 30;

export interface JobBoardLink {
  companyId: string;
  ats: string;
  token: string;
}

/**
 * Postings' own documents (SmartRecruiters' job ads) read per board per poll at most: the rest
 * wait, and the board is due again at the next run, so a large first poll stays within the
 * activity's time and the host's pace. A posting whose document fails waits for the board's next phase.
 */
export const DETAILS_PER_POLL = 20;

/**
 * The `job-boards` source: polls each company's public job board, diffs it by the platform's
 * job id against the postings seen before, and ingests each new posting as a `job_offers`
 * event (id `<ats>:<token>:<jobId>`, so a posting is ingested once however often it is read).
 * Postings gone from the board are marked closed, never turned into leads. Each board is due
 * once per interval at its own phase (board-phases.ts); a run polls the boards that are due.
 */
export class JobBoards implements IntentSource {
  readonly name = 'job-boards';
  private readonly reading: BoardReading;

  constructor(
    private readonly db: DataSource,
    private readonly ingestion: Ingestion,
    private readonly fetcher: PoliteFetch,
    /** Each board's time between two polls, in milliseconds (JOB_BOARDS_INTERVAL). */
    private readonly intervalMs: number,
    documents: DocumentThreads,
  ) {
    this.reading = new BoardReading(fetcher, documents);
  }

  /** Links a stored company to its board (an operator, an ingest, the company-profiles source). */
  async link(board: JobBoardLink): Promise<JobBoardLink> {
    if (!JOB_BOARD_PLATFORMS.has(board.ats)) {
      throw validationError([
        { field: 'ats', message: `must be one of ${JOB_BOARD_ATS.map((a) => `"${a}"`).join(', ')}` },
      ]);
    }
    const company = await firstRow<{ id: string }>(this.db, `SELECT id FROM companies WHERE id = $1`, [
      board.companyId,
    ]);
    if (!company) throw notFound('Company');
    // A new board waits for its phase like the others, so that many boards added at once do not poll at once.
    await execute(
      this.db,
      `INSERT INTO company_job_boards (ats, token, company_id, next_poll_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (ats, token) DO UPDATE SET company_id = EXCLUDED.company_id, found_by = 'operator'`,
      [board.ats, board.token, board.companyId, this.nextPoll(board.ats, board.token)],
    );
    return board;
  }

  /**
   * A board the company-profiles source found on the company's site, when a platform here reads
   * its ATS. A company whose boards the operator set keeps exactly those; a board another
   * company holds stays with it, unless only a claimed company's site linked it and a trusted
   * company's site links it now (a claim cannot hold a real company's board, docs/decisions/claims.md);
   * the site's earlier discovered board gives way. True when added.
   */
  async linkDiscovered(board: JobBoardLink): Promise<boolean> {
    if (!JOB_BOARD_PLATFORMS.has(board.ats)) return false;
    const added = await rows<{ added: number }>(
      this.db,
      `WITH operator AS (SELECT 1 FROM company_job_boards WHERE company_id = $3 AND found_by = 'operator'),
       stale AS (
         DELETE FROM company_job_boards
         WHERE company_id = $3 AND found_by = 'company-profiles' AND (ats, token) <> ($1, $2)
           AND NOT EXISTS (SELECT 1 FROM operator))
       INSERT INTO company_job_boards (ats, token, company_id, found_by, next_poll_at)
       SELECT $1, $2, $3, 'company-profiles', $4 WHERE NOT EXISTS (SELECT 1 FROM operator)
       ON CONFLICT (ats, token) DO UPDATE SET company_id = EXCLUDED.company_id
         WHERE company_job_boards.found_by = 'company-profiles'
           AND EXISTS (SELECT 1 FROM companies h WHERE h.id = company_job_boards.company_id AND h.provenance = 'claimed')
           AND EXISTS (SELECT 1 FROM companies n WHERE n.id = EXCLUDED.company_id AND n.provenance = 'trusted')
       RETURNING 1 AS added`,
      [board.ats, board.token, board.companyId, this.nextPoll(board.ats, board.token)],
    );
    return added.length > 0;
  }

  /** The boards due, after the cursor. */
  async items(after: SourceCursor): Promise<SourceItemsPage> {
    const [ats, token] = after === null ? ['', ''] : splitItem(after);
    const boards = await rows<{ ats: string; token: string }>(
      this.db,
      `SELECT ats, token FROM company_job_boards
       WHERE next_poll_at <= now() AND (ats, token) > ($1, $2) ORDER BY ats, token LIMIT $3`,
      [ats, token, BOARDS_PER_PAGE],
    );
    const items = boards.map((row) => `${row.ats}:${row.token}`);
    return { items, next: boards.length < BOARDS_PER_PAGE ? null : items[items.length - 1]! };
  }

  /** What a run reads, and when that is nothing, why and how to give it something. */
  async detail(): Promise<string | null> {
    const counts = await firstRow<{ boards: string; due: string }>(
      this.db,
      `SELECT count(*) AS boards, count(*) FILTER (WHERE next_poll_at <= now()) AS due FROM company_job_boards`,
    );
    const boards = Number(counts?.boards ?? 0);
    if (boards === 0) {
      return (
        'nothing to read: no job board is known (PUT /admin/v1/companies/{companyId}/job-board links one; the ' +
        "company-profiles source finds them on companies' careers pages)"
      );
    }
    return `polls ${boards} board${boards === 1 ? '' : 's'}, ${Number(counts?.due ?? 0)} due now`;
  }

  /** The operator's run now: every board is due in it, not only those whose phase has come. */
  async dueNow(): Promise<void> {
    await execute(this.db, `UPDATE company_job_boards SET next_poll_at = now() WHERE next_poll_at > now()`);
  }

  /** One board: fetched, parsed, diffed, its new postings ingested. A board's failure is its answer, not a throw. */
  async sync(item: string): Promise<SourceItemResult> {
    const [ats, token] = splitItem(item);
    const platform = JOB_BOARD_PLATFORMS.get(ats);
    const board = await firstRow<{ company_id: string }>(
      this.db,
      `SELECT company_id FROM company_job_boards WHERE ats = $1 AND token = $2`,
      [ats, token],
    );
    if (!platform || !board) return { records: 0 };
    const label = `${platform.name} board "${token}"`;
    const read = await this.reading.whole(platform, token);
    if (read.status === 'not-modified') return this.synced(ats, token, 0);
    if (read.status === 'failed') return this.failed(ats, token, `${label}: ${read.error}`);

    const seen = await rows<{ job_id: string }>(
      this.db,
      `SELECT job_id FROM job_postings_seen WHERE ats = $1 AND token = $2`,
      [ats, token],
    );
    const known = new Set(seen.map((row) => row.job_id));
    let fresh = read.postings.filter((posting) => !known.has(posting.jobId));
    // Postings left for a later poll: neither ingested nor marked seen now.
    const waiting = new Set<string>();
    const more = platform.detail !== undefined && fresh.length > DETAILS_PER_POLL;
    let detailError: string | null = null;
    if (platform.detail) {
      const completed = await this.reading.completed(platform, token, fresh.slice(0, DETAILS_PER_POLL));
      for (const posting of fresh.slice(DETAILS_PER_POLL)) waiting.add(posting.jobId);
      for (const jobId of completed.failed) waiting.add(jobId);
      detailError = completed.error;
      fresh = completed.postings;
    }
    const events = fresh.map((posting) => jobOfferEvent(platform.name, ats, token, board.company_id, posting));
    // Events first, then the postings seen: a run killed in between reads the board again and the
    // events' ids make the second ingest a no-op.
    const result = await this.ingestion.ingest(events);
    if (result.rejected > 0) {
      return this.failed(ats, token, `${label}: ${result.errors[0]?.message ?? 'rejected'}`);
    }
    const present = read.postings.filter((posting) => !waiting.has(posting.jobId));
    await execute(
      this.db,
      `INSERT INTO job_postings_seen (ats, token, job_id, event_id, published_on)
       SELECT $1, $2, p.job_id, $1 || ':' || $2 || ':' || p.job_id, nullif(p.day, '')::date
       FROM unnest($3::text[], $4::text[]) AS p(job_id, day)
       ON CONFLICT (ats, token, job_id) DO UPDATE SET closed_at = NULL`,
      [ats, token, present.map((posting) => posting.jobId), present.map((posting) => posting.publishedDay)],
    );
    await execute(
      this.db,
      `UPDATE job_postings_seen SET closed_at = now()
       WHERE ats = $1 AND token = $2 AND closed_at IS NULL AND NOT (job_id = ANY($3::text[]))`,
      [ats, token, read.postings.map((posting) => posting.jobId)],
    );
    const campaign = fresh.length > 0 ? await this.recruitmentCampaign(board.company_id, platform.name, fresh) : 0;
    // A 304 next time must not hide postings still waiting, nor the later pages of a long board.
    if (read.pages === 1 && waiting.size === 0) await this.fetcher.remember(platform.boardUrl(token), read.validators);
    const records = result.accepted + campaign;
    if (detailError) return this.failed(ats, token, `${label}: ${detailError}`, records, more);
    return this.synced(ats, token, records, more);
  }

  /**
   * A burst of hiring: {@link BURST_POSTINGS} open postings of the company (all its boards)
   * published in the last {@link BURST_WINDOW_DAYS} days make one `recruitment_campaign` event,
   * unless one was made in the last {@link BURST_QUIET_DAYS} days. Its id names the company and
   * the day, so a repeated poll that day adds nothing.
   */
  private async recruitmentCampaign(companyId: string, platform: string, fresh: JobPosting[]): Promise<number> {
    const [burst] = await rows<{ postings: number; recent: boolean }>(
      this.db,
      `SELECT
         (SELECT count(*)::int FROM job_postings_seen s JOIN company_job_boards b USING (ats, token)
          WHERE b.company_id = $1 AND s.closed_at IS NULL
            AND coalesce(s.published_on, s.first_seen_at::date) > current_date - $2::int) AS postings,
         EXISTS (SELECT 1 FROM events WHERE company_id = $1 AND type = 'recruitment_campaign'
                 AND occurred_at > now() - make_interval(days => $3::int)) AS recent`,
      [companyId, BURST_WINDOW_DAYS, BURST_QUIET_DAYS],
    );
    if (burst.postings < BURST_POSTINGS || burst.recent) return 0;
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const latest = fresh[fresh.length - 1]!;
    const result = await this.ingestion.ingest([
      {
        kind: 'event',
        id: `job-boards:recruitment_campaign:${companyId}:${today}`,
        type: 'recruitment_campaign',
        occurredAt: now.toISOString(),
        companyId,
        data: {
          job_offer_url: latest.url.slice(0, MAX_TEXT),
          job_offer_title: `${burst.postings} new job postings in ${BURST_WINDOW_DAYS} days`,
          job_offer_location: latest.location.slice(0, MAX_TEXT),
          job_offer_description: fresh
            .map((posting) => posting.title)
            .join('\n')
            .slice(0, MAX_TEXT),
          job_offer_source: platform,
          job_offer_date: today,
          job_offer_published_date: today,
        },
      } satisfies EventRecordInput,
    ]);
    return result.accepted;
  }

  /** The board's next poll: its next phase, or the next run when postings wait. */
  private nextPoll(ats: string, token: string, waiting = false): Date {
    return waiting ? new Date() : nextPollAt(`${ats}:${token}`, this.intervalMs, new Date());
  }

  private async synced(ats: string, token: string, records: number, waiting = false): Promise<SourceItemResult> {
    await execute(
      this.db,
      `UPDATE company_job_boards SET last_synced_at = now(), last_error = NULL, next_poll_at = $3
       WHERE ats = $1 AND token = $2`,
      [ats, token, this.nextPoll(ats, token, waiting)],
    );
    return { records };
  }

  /** A failing board waits for its next phase like the others: a broken board is not asked again at every run. */
  private async failed(
    ats: string,
    token: string,
    error: string,
    records = 0,
    waiting = false,
  ): Promise<SourceItemResult> {
    await execute(
      this.db,
      `UPDATE company_job_boards SET last_synced_at = now(), last_error = $3, next_poll_at = $4
       WHERE ats = $1 AND token = $2`,
      [ats, token, error, this.nextPoll(ats, token, waiting)],
    );
    return { records, error };
  }
}

/** `greenhouse:acme` → [`greenhouse`, `acme`]; a token may itself hold colons. */
function splitItem(item: string): [string, string] {
  const at = item.indexOf(':');
  return [item.slice(0, at), item.slice(at + 1)];
}

function jobOfferEvent(
  platform: string,
  ats: string,
  token: string,
  companyId: string,
  posting: JobPosting,
): EventRecordInput {
  const stated = posting.statedDate ? new Date(posting.statedDate) : null;
  return {
    kind: 'event',
    id: `${ats}:${token}:${posting.jobId}`,
    type: 'job_offers',
    occurredAt: stated && !Number.isNaN(stated.getTime()) ? stated.toISOString() : new Date().toISOString(),
    companyId,
    data: {
      job_offer_url: posting.url.slice(0, MAX_TEXT),
      job_offer_title: posting.title.slice(0, MAX_TEXT),
      job_offer_location: posting.location.slice(0, MAX_TEXT),
      // A stated pay range leads the description: the lead's fields are the specification's, and it is never cut off there.
      job_offer_description: (posting.pay
        ? `Pay: ${posting.pay}\n\n${posting.description}`
        : posting.description
      ).slice(0, MAX_TEXT),
      job_offer_source: platform,
      job_offer_date: posting.statedDate.slice(0, MAX_TEXT),
      job_offer_published_date: posting.publishedDay,
    },
    department: posting.department?.slice(0, 200),
  };
}
