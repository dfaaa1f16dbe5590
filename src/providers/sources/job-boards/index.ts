import { ashby } from './ashby';
import { greenhouse } from './greenhouse';
import type { JobBoardPlatform } from './job-board';
import { lever } from './lever';

export type { JobBoardPlatform, JobPosting, BoardDocument } from './job-board';

/** The platforms whose boards the job-boards source polls, by their stored `ats` name. */
export const JOB_BOARD_PLATFORMS: ReadonlyMap<string, JobBoardPlatform> = new Map(
  [greenhouse, lever, ashby].map((platform) => [platform.ats, platform]),
);
