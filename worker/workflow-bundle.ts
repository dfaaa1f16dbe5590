import { existsSync } from 'node:fs';
import path from 'node:path';

/** Where `npm run build` puts the workflow bundle: beside the compiled worker (dist/). */
export const WORKFLOW_BUNDLE_FILE = path.join(__dirname, '..', 'workflow-bundle.js');

/** The bundle to load: the one named by WORKFLOW_BUNDLE_PATH, else the build's when it exists, else none (bundled at start). */
export function workflowBundlePath(fromEnv: string | undefined): string | undefined {
  if (fromEnv) return fromEnv;
  return existsSync(WORKFLOW_BUNDLE_FILE) ? WORKFLOW_BUNDLE_FILE : undefined;
}
