import { z } from 'zod';
import { duration, type SettingsOf } from '../../settings-fields';

/** The bluesky source's part of the configuration (environment variables), read by src/config.ts. */
export const blueskySettings = (_production: boolean) => ({
  /** How often the bluesky source reads the watched companies' and competitors' accounts. */
  BLUESKY_INTERVAL: duration('1h'),
  /** Likes and reposts of a post are read for this many days after it was posted (docs/sources/bluesky.md). */
  BLUESKY_REACTION_WINDOW_DAYS: z.coerce.number().int().min(1).max(30).default(7),
  /** Entries per page of an XRPC list (the AppView allows 1 to 100). */
  BLUESKY_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(100),
  /** Pages read at most of one list (a post's likes, an account's followers) per run. */
  BLUESKY_MAX_PAGES: z.coerce.number().int().min(1).max(1000).default(20),
});

export type BlueskyConfig = SettingsOf<typeof blueskySettings>;
