import { listenOnce } from '../../src/net/ports';

// findFreePort stays in src/ (the worker needs it); re-exported so infrastructure takes every port helper from here.
export { findFreePort } from '../../src/net/ports';

/**
 * A free port in [low, high): for servers that store their port in a narrow column (the
 * Temporal server keeps membership ports as PostgreSQL smallint, so below 32768).
 */
export async function findFreePortBetween(low: number, high: number, host = '127.0.0.1'): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const candidate = low + Math.floor(Math.random() * (high - low));
    try {
      return await listenOnce(candidate, host);
    } catch {
      // Taken: try another.
    }
  }
  throw new Error(`no free port between ${low} and ${high} on ${host}`);
}

/** A fixed port a server we start will listen on, and the setting that moves it. */
export interface PortClaim {
  port: number;
  /** Who needs it, as a phrase: "the API", "the Temporal Web UI". */
  purpose: string;
  /** The environment variable that moves it, named in the error. */
  movedBy?: string;
  host?: string;
}

/** Why a claimed port cannot be had, or undefined when it is free. */
async function problemWith(claim: PortClaim): Promise<string | undefined> {
  const host = claim.host ?? '127.0.0.1';
  try {
    await listenOnce(claim.port, host);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
    const move = claim.movedBy ? `; set ${claim.movedBy} to another port` : '';
    return (
      `${claim.purpose} needs ${host}:${claim.port}, but it is ${code === 'EACCES' ? 'not allowed' : 'in use'}` +
      ` (another instance, or a server left over from an earlier run? see: ss -ltnp 'sport = :${claim.port}')${move}`
    );
  }
}

/**
 * Fails early, naming the port, when a fixed port is taken: usually a server left over by an
 * earlier run, whose own error message would be buried in its log.
 */
export async function assertPortFree(
  port: number,
  purpose: string,
  host = '127.0.0.1',
  movedBy?: string,
): Promise<void> {
  const problem = await problemWith({ port, purpose, host, movedBy });
  if (problem) throw new Error(problem);
}

/**
 * Fails before anything starts when any of the claimed ports is taken, naming each taken one
 * and the variable that moves it, so one attempt shows everything a second instance must move.
 */
export async function assertPortsFree(claims: readonly PortClaim[]): Promise<void> {
  const problems: string[] = [];
  const seen = new Map<string, PortClaim>();
  for (const claim of claims) {
    const key = `${claim.host ?? '127.0.0.1'}:${claim.port}`;
    const earlier = seen.get(key);
    if (earlier) {
      problems.push(
        `${claim.purpose} and ${earlier.purpose} are both set to ${key}; move one (${[earlier.movedBy, claim.movedBy].filter(Boolean).join(' or ')})`,
      );
      continue;
    }
    seen.set(key, claim);
    const problem = await problemWith(claim);
    if (problem) problems.push(problem);
  }
  if (problems.length === 1) throw new Error(problems[0]);
  if (problems.length > 1) throw new Error(`ports are taken:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
}
