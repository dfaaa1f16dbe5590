import { z } from 'zod';
import { optionalText, int, type SettingsOf } from '../../settings-fields';

/** The settings every source shares (its part of the configuration, read by src/config.ts): fetching manners and limits, the document threads. */
export const sourceKitSettings = (production: boolean) => ({
  /**
   * The contact address every source request names in its User-Agent (fair use: a vendor that
   * minds our traffic can write). Required in production.
   */
  SOURCES_CONTACT_EMAIL: production
    ? z.email({ error: 'required when NODE_ENV=production: an email address such as ops@leads.example.com' })
    : optionalText.pipe(z.email().optional()).transform((v) => v ?? 'sources@localhost'),
  /**
   * Hosts a source reaches, sent elsewhere (tests, staging): `boards-api.greenhouse.io=http://127.0.0.1:4010,...`.
   * Path and query are kept; politeness and parsing stay those of the real host.
   */
  SOURCES_HOST_MAP: optionalText.transform((v, ctx) => {
    const map = new Map<string, string>();
    for (const pair of (v ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [host, target] = pair.split(/=(.*)/s);
      if (!host || !target || !/^https?:\/\/[^/]+$/.test(target.replace(/\/+$/, ''))) {
        ctx.addIssue({ code: 'custom', message: `"${pair}" must be host=http(s)://address[:port]` });
        return z.NEVER;
      }
      map.set(host.toLowerCase(), target.replace(/\/+$/, ''));
    }
    return map;
  }),
  /** The least time between two requests to one host, across every worker. */
  SOURCES_HOST_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
  /** No byte for this long is a dead answer (an idle time-out: a trickle resets it, hence the two below). */
  SOURCES_TIMEOUT_MS: int(15_000),
  /** A source's request, answer included, ends within this however it trickles (docs/decisions/sources.md). */
  SOURCES_DEADLINE_MS: int(60_000),
  /** Past the grace, an answer must average at least this many bytes a second since its headers, or it is cut off. */
  SOURCES_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(0).default(1000),
  /** How long an answer may be slower than SOURCES_MIN_BYTES_PER_SECOND after its headers before the rate counts. */
  SOURCES_MIN_RATE_GRACE_MS: int(10_000),
  /** Larger answers are cut off and counted as the source's error (a whole Ashby board is a few MB). */
  SOURCES_MAX_RESPONSE_BYTES: int(20_000_000),
  /** Threads that read the sources' fetched documents (HTML, XML, boards) off the worker's event loop. */
  SOURCES_PARSE_THREADS: z.coerce.number().int().min(1).max(16).default(2),
  /** The old-generation heap of each document thread: a document needing more is its problem, not the worker's death. */
  SOURCES_PARSE_HEAP_MB: z.coerce.number().int().min(16).max(4096).default(256),
  /** Wall-clock time one document may take to read; past it the thread is ended and the document is a problem. */
  SOURCES_PARSE_BUDGET_MS: int(20_000),
});

export type SourceKitConfig = SettingsOf<typeof sourceKitSettings>;
