import type { DataSource } from 'typeorm';
import type { Logger } from '../../logger';
import { changed } from '../../db/sql';

/** DNS and socket errors that mean the host was not reached at all: no internet, no such name, nothing listening. */
const UNREACHABLE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
]);

const OFFLINE = 'offline: could not reach ';

/** No answer within SOURCES_TIMEOUT_MS: the host counts as unreachable, like a refused connection. */
export class NoAnswerInTime extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/**
 * The one plain line a source's status shows when `host` (the real one, not where
 * SOURCES_HOST_MAP sends it) could not be reached, e.g.
 * `offline: could not reach boards-api.greenhouse.io (ENOTFOUND)`; undefined for any other failure.
 */
export function unreachableLine(host: string, err: unknown): string | undefined {
  if (err instanceof NoAnswerInTime) return `${OFFLINE}${host} (no answer within ${err.timeoutMs / 1000} s)`;
  const code = codeOf(err);
  return code && UNREACHABLE_CODES.has(code) ? `${OFFLINE}${host} (${code})` : undefined;
}

/** The offline line inside an item's error (a source puts the item's name before it), if it is one. */
export function offlineLineOf(error: string | undefined): string | undefined {
  const at = error?.indexOf(OFFLINE) ?? -1;
  return at < 0 ? undefined : error!.slice(at);
}

/** Node answers a refused connection to a name with several addresses as an AggregateError of them. */
function codeOf(err: unknown): string | undefined {
  const own = (err as { code?: unknown } | null)?.code;
  if (typeof own === 'string') return own;
  const first = (err as { errors?: unknown[] } | null)?.errors?.[0];
  const inner = (first as { code?: unknown } | undefined)?.code;
  return typeof inner === 'string' ? inner : undefined;
}

/**
 * A source without internet says so quietly: one warn line per run (the first unreachable
 * item's), not one per item; the rest is in its status. The run's `state` (reset by each new
 * run) remembers that the line was written, so several workers of one run write it once.
 */
export class OfflineNotice {
  constructor(
    private readonly db: DataSource,
    private readonly logger: Logger,
  ) {}

  async tell(source: string, line: string): Promise<void> {
    const first = await changed(
      this.db,
      `UPDATE sources SET state = state || '{"offlineNoticed": true}'
       WHERE name = $1 AND state->>'offlineNoticed' IS NULL`,
      [source],
    );
    if (first.count > 0)
      this.logger.warn({ source }, `source ${source} is ${line}; its other unreachable items this run are not logged`);
  }
}
