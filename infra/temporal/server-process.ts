import { spawn, type ChildProcess } from 'node:child_process';

const LOG_TAIL_LINES = 40;
const STOP_GRACE_MS = 10_000;

export interface ServerProcess {
  stop(): Promise<void>;
  /** Resolves when the process ends, whether by stop() or not. */
  exited: Promise<void>;
  /** Set once the server can no longer become ready (its process died), with its last output. */
  failure(): Error | undefined;
}

/**
 * A server binary (the Temporal CLI's dev server, the full Temporal server) run as a child that
 * dies with us: its output goes line by line to `onLog` until we stop it, and an early exit is
 * reported with its last lines so a failed start says why.
 */
export function superviseServerProcess(
  command: string,
  args: string[],
  label: string,
  onLog?: (line: string) => void,
): ServerProcess {
  const child = spawn(command, args, { detached: false, stdio: ['ignore', 'pipe', 'pipe'] });
  // A caller that forgets stop() should not hang forever: the server alone keeps nothing
  // alive, and the 'exit' handler below takes it down with us.
  child.unref();
  const tail: string[] = [];
  // Once we stop it, its complaints about closing connections are expected noise.
  let stopRequested = false;
  const record = (line: string) => {
    tail.push(line);
    if (tail.length > LOG_TAIL_LINES) tail.shift();
    if (!stopRequested) onLog?.(line);
  };
  forwardLines(child, record);

  // stop() is the normal path; this covers a parent that exits without calling it. SIGKILL
  // because nothing can wait after 'exit', and SQLite survives it.
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);

  let exitError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('error', (err) => {
      exitError = new Error(`could not run ${command}: ${err.message}`);
      resolve();
    });
    // 'close', not 'exit': by then the output is complete, and the tail says why it ended.
    child.once('close', (code, signal) => {
      exitError ??= new Error(
        `${label} exited (${signal ?? `code ${code}`}) before it was ready; its last output:\n${tail.join('\n')}`,
      );
      resolve();
    });
  }).finally(() => process.removeListener('exit', killOnExit));

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopRequested = true;
    return (stopping ??= stopChild(child, exited));
  };
  return { stop, exited, failure: () => exitError };
}

function forwardLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) onLine(line);
    });
    stream?.on('end', () => {
      if (partial.trim()) onLine(partial);
    });
  }
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const escalation = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  try {
    await exited;
  } finally {
    clearTimeout(escalation);
  }
}
