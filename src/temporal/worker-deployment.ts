import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { WorkerDeploymentVersion } from '@temporalio/common';

/**
 * Worker Versioning (docs/decisions/deploys.md): each build of the workers is a version of one
 * Worker Deployment, `<TEMPORAL_DEPLOYMENT_NAME>.<build id>`. The server sends a new workflow to
 * the deployment's current version; a lead workflow stays on the version that started it
 * (PINNED), a signal workflow moves to the current version at its next workflow task
 * (AUTO_UPGRADE). Which version is current is the operator's call, except on a first start.
 */

/** Written by `npm run build` (scripts/build-info.ts) at the root of dist/: what this build is. */
export const BUILD_INFO_FILE = path.join(__dirname, '..', '..', 'build-info.json');

export interface BuildInfo {
  version: string;
  commit: string | null;
  buildId: string;
}

/** `<package version>-<commit>`, the commit as `git rev-parse --short=12 HEAD` names it; `-dev` outside a checkout. */
export function buildInfoOf(projectRoot: string, env: NodeJS.ProcessEnv = process.env): BuildInfo {
  const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: projectRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // Not a git checkout (an image built from a copy): BUILD_ID names the build, or `-dev` does.
  }
  return { version, commit, buildId: env.BUILD_ID || `${version}-${commit ?? 'dev'}` };
}

/**
 * This process's build id: BUILD_ID, else the one the build wrote into dist/, else (running from
 * the sources: tests, ts-node) the checkout's, computed now.
 */
export function resolveBuildId(fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  if (existsSync(BUILD_INFO_FILE)) return (JSON.parse(readFileSync(BUILD_INFO_FILE, 'utf8')) as BuildInfo).buildId;
  return buildInfoOf(projectRootFrom(__dirname)).buildId;
}

function projectRootFrom(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, 'package.json'))) return at;
    if (path.dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}

/** The version the workers of this process are, or undefined when versioning is off (no deployment name). */
export function workerVersionOf(config: {
  TEMPORAL_DEPLOYMENT_NAME?: string;
  BUILD_ID?: string;
}): WorkerDeploymentVersion | undefined {
  if (!config.TEMPORAL_DEPLOYMENT_NAME) return undefined;
  return { deploymentName: config.TEMPORAL_DEPLOYMENT_NAME, buildId: resolveBuildId(config.BUILD_ID) };
}

export type PromotePolicy = 'if-none' | 'always' | 'never';

export type DrainageStatus = 'unspecified' | 'draining' | 'drained';
/** `temporal.api.enums.v1.VersionDrainageStatus` and `WorkerDeploymentVersionStatus`, by number. */
const DRAINAGE_STATUS: readonly DrainageStatus[] = ['unspecified', 'draining', 'drained'];
const VERSION_STATUS: readonly string[] = ['unspecified', 'inactive', 'current', 'ramping', 'draining', 'drained'];

/** gRPC status codes the deployment calls answer while a just-started worker's version is not registered yet. */
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
const REGISTRATION_TIMEOUT_MS = 60_000;

/** The deployment's state as the operator reads it (also `temporal worker deployment describe`). */
export interface DeploymentState {
  currentBuildId: string | null;
  versions: Array<{ buildId: string; status: string }>;
  conflictToken: Uint8Array | null;
}

/** The Worker Deployment calls of the Temporal frontend this service uses, on one namespace. */
export class WorkerDeployments {
  constructor(
    private readonly temporal: Pick<Client, 'workflowService'>,
    private readonly namespace: string,
    private readonly identity = 'intent-leads',
  ) {}

  /** Undefined while no worker of the deployment has polled yet. */
  async describe(deploymentName: string): Promise<DeploymentState | undefined> {
    try {
      const answer = await this.temporal.workflowService.describeWorkerDeployment({
        namespace: this.namespace,
        deploymentName,
      });
      const info = answer.workerDeploymentInfo;
      return {
        currentBuildId: buildIdOfVersion(
          info?.routingConfig?.currentDeploymentVersion,
          info?.routingConfig?.currentVersion,
        ),
        versions: (info?.versionSummaries ?? []).map((summary) => ({
          buildId: buildIdOfVersion(summary.deploymentVersion, summary.version) ?? '',
          status: VERSION_STATUS[summary.status ?? 0] ?? 'unspecified',
        })),
        conflictToken: answer.conflictToken ?? null,
      };
    } catch (err) {
      if (codeOf(err) === NOT_FOUND || codeOf(err) === FAILED_PRECONDITION) return undefined;
      throw err;
    }
  }

  /**
   * Makes `version` the current one: new workflows and auto-upgrading ones go to its workers
   * from now on. Waits (up to a minute) for the version to be registered, which its workers do
   * by polling; the server refuses while the version does not poll every task queue the
   * current one does.
   */
  async makeCurrent(version: WorkerDeploymentVersion): Promise<void> {
    await this.untilRegistered(() =>
      this.temporal.workflowService.setWorkerDeploymentCurrentVersion({
        namespace: this.namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        identity: this.identity,
      }),
    );
  }

  /**
   * What a starting worker does with its own version under `policy`: `if-none` makes it current
   * only when the deployment has no current version (so a first start, `npm start` and the
   * tests need no step, while a later build waits for the operator). Answers whether it did.
   */
  async promote(version: WorkerDeploymentVersion, policy: PromotePolicy): Promise<boolean> {
    if (policy === 'never') return false;
    const deadline = Date.now() + REGISTRATION_TIMEOUT_MS;
    for (;;) {
      const state = await this.describe(version.deploymentName);
      if (state?.currentBuildId === version.buildId) return false;
      if (policy === 'if-none' && state && state.currentBuildId !== null) return false;
      try {
        // The token makes two first starts of different builds agree: one wins, the other sees it.
        await this.temporal.workflowService.setWorkerDeploymentCurrentVersion({
          namespace: this.namespace,
          deploymentName: version.deploymentName,
          buildId: version.buildId,
          conflictToken: policy === 'if-none' ? (state?.conflictToken ?? undefined) : undefined,
          identity: this.identity,
        });
        return true;
      } catch (err) {
        if (!isNotRegisteredYet(err) || Date.now() > deadline) throw err;
        await sleep(500);
      }
    }
  }

  /**
   * Whether a version that is no longer current still has open pinned workflows (`draining`)
   * or none (`drained`: its workers may stop). The server refreshes it every few minutes
   * (`matching.wv.VersionDrainageStatusRefreshInterval`).
   */
  async drainageOf(version: WorkerDeploymentVersion): Promise<DrainageStatus> {
    const answer = await this.temporal.workflowService.describeWorkerDeploymentVersion({
      namespace: this.namespace,
      deploymentVersion: version,
    });
    return DRAINAGE_STATUS[answer.workerDeploymentVersionInfo?.drainageInfo?.status ?? 0] ?? 'unspecified';
  }

  private async untilRegistered<T>(call: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + REGISTRATION_TIMEOUT_MS;
    for (;;) {
      try {
        return await call();
      } catch (err) {
        if (!isNotRegisteredYet(err) || Date.now() > deadline) throw err;
        await sleep(500);
      }
    }
  }
}

const codeOf = (err: unknown): number | undefined => (err as { code?: number } | null)?.code;
const isNotRegisteredYet = (err: unknown) => codeOf(err) === NOT_FOUND || codeOf(err) === FAILED_PRECONDITION;

/** The server answers both the structured version and, from older releases, `<deployment>.<build id>`. */
function buildIdOfVersion(
  structured: { buildId?: string | null } | null | undefined,
  canonical: string | null | undefined,
): string | null {
  if (structured?.buildId) return structured.buildId;
  if (!canonical || canonical === '__unversioned__') return null;
  const dot = canonical.indexOf('.');
  return dot < 0 ? null : canonical.slice(dot + 1);
}
