import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Runs `work` once per `npm test` (per global setup), however many files and jest workers ask:
 * the first to ask does it, the others wait for its outcome. State lives in the run's
 * temporary folder, so the next run does it again.
 */
export async function oncePerRun(name: string, work: () => Promise<void>): Promise<void> {
  const bundle = process.env.TEST_WORKFLOW_BUNDLE;
  if (!bundle) throw new Error('TEST_WORKFLOW_BUNDLE is not set: run the tests through jest (global setup)');
  const state = path.join(path.dirname(bundle), `${name}.state`);
  const done = path.join(state, 'done');
  const failed = path.join(state, 'failed');
  try {
    mkdirSync(state); // atomic: exactly one caller wins the right to do the work
  } catch {
    for (;;) {
      if (existsSync(done)) return;
      if (existsSync(failed)) throw new Error(`the shared ${name} failed: ${readFileSync(failed, 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    await work();
    writeFileSync(done, '');
  } catch (err) {
    writeFileSync(failed, String(err));
    throw err;
  }
}
