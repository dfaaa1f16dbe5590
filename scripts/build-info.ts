/**
 * Part of `npm run build`: names this build in dist/build-info.json (package version and commit,
 * or BUILD_ID), so that the worker's Worker Deployment version says which code it runs even
 * where the build is copied without its git checkout (the image).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_INFO_FILE, buildInfoOf } from '../src/temporal/worker-deployment';

// Compiled to dist/scripts/build-info.js: the project is two folders up.
const info = buildInfoOf(path.resolve(__dirname, '..', '..'));
writeFileSync(BUILD_INFO_FILE, `${JSON.stringify(info, null, 2)}\n`);
console.log(`build id: ${info.buildId} (${path.relative(process.cwd(), BUILD_INFO_FILE)})`);
