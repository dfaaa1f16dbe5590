import { defineSource } from '../kit/source-module';
import { JobBoards } from './job-boards';
import { JOB_BOARD_PLATFORMS } from './platforms';
import { jobBoardsSettings } from './settings';

/** Job postings from the boards of the ATS platforms in ./platforms (docs/sources/job-boards.md). */
export const jobBoardsSource = defineSource({
  name: 'job-boards',
  settings: jobBoardsSettings,
  // The schedule ticks often; each board is polled at its own phase of JOB_BOARDS_INTERVAL.
  intervalMs: (settings) => settings.JOB_BOARDS_TICK,
  create: (kit, settings) => {
    const jobBoards = new JobBoards(
      kit.db,
      kit.ingestion,
      kit.politeFetch,
      settings.JOB_BOARDS_INTERVAL,
      kit.documents,
    );
    kit.siteFindings.take({
      boardPlatforms: JOB_BOARD_PLATFORMS,
      board: (found) => jobBoards.linkDiscovered(found),
    });
    return { source: jobBoards, parts: { jobBoards } };
  },
});
