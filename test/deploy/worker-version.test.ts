import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { buildInfoOf, workerVersionOf } from '../../src/temporal/worker-deployment';
import { TEST_ADMIN_TOKEN } from '../setup/stack';

const base = {
  DATABASE_URL: 'postgres://x/y',
  ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  SECRETS_KEY: Buffer.alloc(32).toString('base64'),
};
const ROOT = path.resolve(__dirname, '../..');

test('without TEMPORAL_DEPLOYMENT_NAME the workers are unversioned; the promotion policy defaults to if-none', () => {
  const config = loadConfig({ ...base, TEMPORAL_DEPLOYMENT_NAME: '' });
  expect(workerVersionOf(config)).toBeUndefined();
  expect(config.TEMPORAL_DEPLOYMENT_PROMOTE).toBe('if-none');
});

test('the build id is the package version and the commit, unless BUILD_ID names it', () => {
  const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  expect(buildInfoOf(ROOT, {})).toEqual({ version, commit, buildId: `${version}-${commit}` });
  expect(workerVersionOf(loadConfig({ ...base, TEMPORAL_DEPLOYMENT_NAME: 'intent-leads' }))).toEqual({
    deploymentName: 'intent-leads',
    buildId: `${version}-${commit}`,
  });
  expect(
    workerVersionOf(loadConfig({ ...base, TEMPORAL_DEPLOYMENT_NAME: 'intent-leads', BUILD_ID: '2.0.0-abc' })),
  ).toEqual({ deploymentName: 'intent-leads', buildId: '2.0.0-abc' });
});

test('a deployment name with a dot or colon, a build id with spaces or an unknown policy: refused, naming the variable', () => {
  // The server names a version `<deployment>:<build id>` (and `.` in older fields): neither may be in the name.
  for (const bad of ['intent.leads', 'intent:leads', 'two words']) {
    expect(() => loadConfig({ ...base, TEMPORAL_DEPLOYMENT_NAME: bad })).toThrow(
      /^invalid configuration: TEMPORAL_DEPLOYMENT_NAME: /,
    );
  }
  expect(() => loadConfig({ ...base, BUILD_ID: 'my build' })).toThrow(/^invalid configuration: BUILD_ID: /);
  expect(() => loadConfig({ ...base, TEMPORAL_DEPLOYMENT_PROMOTE: 'sometimes' })).toThrow(
    /^invalid configuration: TEMPORAL_DEPLOYMENT_PROMOTE: /,
  );
});
