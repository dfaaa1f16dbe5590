import { ashby } from './ashby';
import { greenhouse } from './greenhouse';
import type { JobBoardPlatform } from './job-board';
import { lever } from './lever';
import { personio } from './personio';
import { recruitee } from './recruitee';
import { smartrecruiters } from './smartrecruiters';
import { workable } from './workable';

export type { JobBoardPlatform, JobPosting, BoardDocument, BoardPage } from './job-board';
export { documentOf } from './job-board';

/** The platforms whose boards the job-boards source polls, by their stored `ats` name. */
export const JOB_BOARD_PLATFORMS: ReadonlyMap<string, JobBoardPlatform> = new Map(
  [greenhouse, lever, ashby, workable, smartrecruiters, recruitee, personio].map((platform) => [
    platform.ats,
    platform,
  ]),
);

/** The stored `ats` names, as the operator's API accepts them. */
export const JOB_BOARD_ATS = [...JOB_BOARD_PLATFORMS.keys()];
