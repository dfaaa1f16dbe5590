import type { Stack } from '../setup/stack';
import { TEST_ADMIN_TOKEN } from '../setup/stack';
import { call } from '../setup/http';

/**
 * The operator's run now (or backfill) of a source, through its schedule, waited for until that
 * run has finished; answers the source's status then. (The schedule's trigger itself waits out a
 * second already used by the last run: src/sources/kit/schedules.ts.)
 */
export async function runSourceNow(stack: Stack, source: string, verb: 'run' | 'backfill' = 'run') {
  const before = (await stack.services.sources.get(source)).lastRunFinishedAt;
  const answer = await call(`${stack.url}/admin/v1/sources/${source}/${verb}`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
  });
  if (answer.status !== 200) throw new Error(`${verb} ${source}: ${answer.status} ${answer.text}`);
  return waitForRunAfter(stack, source, before);
}

/** Waits until a run of the source that finished after `before` is over (a scheduled one too). */
export async function waitForRunAfter(stack: Stack, source: string, before: string | null) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const status = await stack.services.sources.get(source);
    if (status.lastRunFinishedAt !== before && !status.running) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the ${source} run did not finish in time`);
}
