import { duration, type SettingsOf } from '../../settings-fields';

/** The job-boards source's part of the configuration (environment variables), read by src/config.ts. */
export const jobBoardsSettings = (_production: boolean) => ({
  /** How often the job-boards source polls each known board (each at its own phase within it). */
  JOB_BOARDS_INTERVAL: duration('6h'),
  /** How often the job-boards schedule runs to poll the boards whose phase has come. */
  JOB_BOARDS_TICK: duration('5m'),
});

export type JobBoardsConfig = SettingsOf<typeof jobBoardsSettings>;
