/**
 * Part of `npm run build`: bundles the workflows once, into dist/workflow-bundle.js, which the
 * worker loads at start. Bundling inside the worker (webpack) at every start took seconds and
 * left ~100 MB in its heap for the life of the process (docs/performance.md, scale).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_FILE } from '../worker/workflow-bundle';

async function main(): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: quietLogger });
  writeFileSync(WORKFLOW_BUNDLE_FILE, code);
  console.log(
    `workflows bundled: ${path.relative(process.cwd(), WORKFLOW_BUNDLE_FILE)} (${(code.length / 1024).toFixed(0)} KB)`,
  );
}

const quiet = () => undefined;
const quietLogger = { trace: quiet, debug: quiet, info: quiet, warn: console.warn, error: console.error, log: quiet };

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
