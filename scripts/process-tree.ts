import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, renameSync, statSync } from 'node:fs';

/** Something `npm start` started and must stop on the way out. */
export interface Part {
  name: string;
  stop(): Promise<void>;
}

/** Stops its parts in the reverse order of their start, so each stops before what it uses. */
export class ProcessTree {
  private readonly parts: Part[] = [];
  private closing = false;

  /** True from the first {@link requestClose}; start-up steps check it to stop early. */
  get isClosing(): boolean {
    return this.closing;
  }

  add<T extends Part>(part: T): T {
    this.parts.push(part);
    return part;
  }

  requestClose(): void {
    this.closing = true;
  }

  /** Stops every part added so far, one at a time. */
  async close(log: (line: string) => void): Promise<void> {
    this.closing = true;
    for (let part = this.parts.pop(); part; part = this.parts.pop()) {
      const started = Date.now();
      try {
        await part.stop();
        log(`stopped ${part.name} (${Date.now() - started} ms)`);
      } catch (err) {
        log(`could not stop ${part.name} cleanly: ${(err as Error).message}`);
      }
    }
  }
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface NodeChild extends Part {
  exited: Promise<ChildExit>;
  pid?: number;
  /** Its last lines on stderr (where a crash's error goes), to quote when it dies. */
  lastErrorLines(): string[];
}

const ERROR_TAIL_LINES = 12;

/**
 * `node <script>` with our stdout and stderr (stderr passes through us, keeping its last
 * lines). stop() sends SIGTERM, then SIGKILL after `graceMs`; if this process exits first,
 * the child is killed with it.
 */
export function spawnNode(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  graceMs: number,
  nodeFlags: readonly string[] = [],
  logFile?: string,
): NodeChild {
  const child = spawn(process.execPath, [...nodeFlags, script], {
    env,
    stdio: ['ignore', logFile ? 'pipe' : 'inherit', 'pipe'],
    detached: false,
  });
  if (logFile && child.stdout) keepLog(name, child.stdout, logFile);
  const tail: string[] = [];
  let partial = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    tail.push(...lines.filter((line) => line.trim()));
    tail.splice(0, Math.max(0, tail.length - ERROR_TAIL_LINES));
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('error', () => resolve({ code: null, signal: null }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  }).finally(() => process.removeListener('exit', killOnExit));

  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= terminate(child, exited, graceMs));
  const lastErrorLines = () => (partial.trim() ? [...tail, partial] : [...tail]).slice(-ERROR_TAIL_LINES);
  return { name, exited, stop, pid: child.pid, lastErrorLines };
}

/** A log file past this size starts again at its next start, the old one kept as `<file>.1`. */
const LOG_FILE_MAX_BYTES = 50 * 1024 * 1024;
/** pino's number for `warn`: lines at or above it are shown on the console too. */
const PINO_WARN = 40;
const LEVEL_NAMES: Record<number, string> = { 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/**
 * A child's JSON log lines go to its file; warnings and errors also to the console, as one short
 * line, so the console keeps the banner and what needs attention (docs/operating.md, "Logs").
 */
function keepLog(name: string, stdout: NodeJS.ReadableStream, logFile: string): void {
  if (existsSync(logFile) && statSync(logFile).size > LOG_FILE_MAX_BYTES) renameSync(logFile, `${logFile}.1`);
  const file = createWriteStream(logFile, { flags: 'a' });
  let partial = '';
  stdout.on('data', (chunk: Buffer) => {
    file.write(chunk);
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const shown = consoleLineOf(line);
      if (shown) console.log(`[${name}] ${shown}`);
    }
  });
  stdout.on('end', () => file.end());
}

/** What the console shows of one log line: a warning or worse in words, any other text as it is, else nothing. */
export function consoleLineOf(line: string): string | undefined {
  if (!line.trim()) return undefined;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  const { level, msg, err } = (entry ?? {}) as { level?: unknown; msg?: unknown; err?: { message?: unknown } };
  // Not a log line (pino's always has a number for its level): shown as it is.
  if (typeof level !== 'number') return line;
  if (level < PINO_WARN) return undefined;
  const label = LEVEL_NAMES[Math.min(60, Math.floor(level / 10) * 10)] ?? 'WARN';
  const reason = typeof err?.message === 'string' && err.message !== msg ? `: ${err.message}` : '';
  return `${label} ${typeof msg === 'string' ? msg : JSON.stringify(entry)}${reason}`;
}

async function terminate(child: ChildProcess, exited: Promise<ChildExit>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const escalation = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(escalation);
  }
}

const SUPERVISED = 'INTENT_LEADS_SUPERVISED';

/**
 * A terminal's Ctrl-C reaches every process of the foreground process group at once, so
 * PostgreSQL and the Temporal server would stop while the API and worker still use them.
 * The launcher therefore re-runs this script in a new session (detached) that no terminal
 * signal reaches, forwards SIGINT/SIGTERM/SIGHUP to it, and exits with its exit code. The
 * re-run learns of a vanished launcher through the IPC channel ('disconnect').
 *
 * @returns true in the launcher, which must do nothing else.
 */
export function relaunchDetached(): boolean {
  if (process.env[SUPERVISED] === '1') {
    delete process.env[SUPERVISED]; // Not for the children to see.
    return false;
  }
  if (process.platform === 'win32') return false;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [SUPERVISED]: '1' },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward);
  child.once('error', (err) => {
    console.error(`could not start: ${err.message}`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => process.exit(code ?? (signal === 'SIGKILL' ? 137 : 1)));
  return true;
}

/** In the re-run: calls `onGone` when the launcher disappears (killed, terminal closed). */
export function onLauncherGone(onGone: () => void): void {
  if (!process.channel) return;
  process.channel.unref(); // The channel alone must not keep this process alive.
  process.once('disconnect', onGone);
}

/**
 * First SIGINT/SIGTERM: `onFirst`. Another one: `onForce`. npm forwards the Ctrl-C it got
 * from the terminal to its script, so one key press may arrive twice within milliseconds;
 * repeats inside `echoMs` count as the same press.
 */
export function onShutdownSignals(onFirst: (signal: NodeJS.Signals) => void, onForce: () => void, echoMs = 500): void {
  let firstAt: number | undefined;
  const handle = (signal: NodeJS.Signals) => {
    if (firstAt === undefined) {
      firstAt = Date.now();
      onFirst(signal);
    } else if (Date.now() - firstAt > echoMs) {
      onForce();
    }
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
