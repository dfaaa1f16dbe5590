import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DocumentKind, DocumentReaders } from '../document-readers';

export interface DocumentThreadSettings {
  /** Threads at most (SOURCES_PARSE_THREADS). */
  threads: number;
  /** Each thread's old-generation heap (SOURCES_PARSE_HEAP_MB). */
  heapMb: number;
  /** Wall-clock time one document may take (SOURCES_PARSE_BUDGET_MS). */
  budgetMs: number;
}

/** What a reader answers, or why the document could not be read in its thread. */
export type DocumentAnswer<K extends DocumentKind> = ReturnType<DocumentReaders[K]> | { problem: string };

interface Task {
  id: number;
  kind: DocumentKind;
  args: unknown[];
  resolve(answer: unknown): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  budget: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
}

type ThreadMessage = { ready: true } | { id: number; result: unknown } | { id: number; problem: string };

/** An idle thread is ended after this long; the next document starts one again (about 50 ms). */
const IDLE_MS = 60_000;
/**
 * Longer texts go to the thread as UTF-8 bytes whose buffer is moved, not copied: cloning a
 * 20 MB string holds the event loop several times longer than encoding it.
 */
const MOVED_CHARS = 64 * 1024;

const ENTRY = path.join(__dirname, `document-thread${path.extname(__filename)}`);

/**
 * Under jest the service runs from its TypeScript sources: the thread compiles them with
 * @swc/core as jest's transform does (dist/ needs none of it).
 */
const TYPESCRIPT_THREAD = `
const { workerData } = require('node:worker_threads');
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { transformSync } = require(workerData.compiler);
Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    swcrc: false,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(workerData.entry);
`;

/**
 * The sources' fetched documents are read in worker threads, never on the worker's event loop:
 * a page whose parse runs long (htmlparser2's cost grows with the square of unclosed tags) or
 * a document that needs much memory would otherwise stop every workflow task and activity of
 * the worker, lead production and deliveries included, or take its heap. Each thread has its
 * own heap limit and each document a wall-clock budget; past either the thread is ended and the
 * document is that item's problem. A small pool of its own (node:worker_threads), started on
 * the first document, so the API's process, which builds the same services, starts none.
 */
export class DocumentThreads {
  private readonly threads = new Set<Thread>();
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly settings: DocumentThreadSettings) {}

  /** The reader `kind` applied to `args` in a thread: its answer, or the problem that stopped it. */
  read<K extends DocumentKind>(kind: K, ...args: Parameters<DocumentReaders[K]>): Promise<DocumentAnswer<K>> {
    if (this.closed) return Promise.resolve({ problem: 'the document threads are closed' });
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, kind, args, resolve: resolve as (answer: unknown) => void });
      this.dispatch();
    });
  }

  /** Threads running now (started or starting). */
  get running(): number {
    return this.threads.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.resolve({ problem: 'the document threads are closed' });
    const threads = [...this.threads];
    for (const thread of threads) this.ended(thread, 'the document threads are closed');
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (this.queue.length === 0) return;
      if (thread.ready && !thread.task) this.assign(thread, this.queue.shift()!);
    }
    const starting = [...this.threads].filter((thread) => !thread.ready).length;
    const wanted = Math.min(this.queue.length - starting, this.settings.threads - this.threads.size);
    for (let i = 0; i < wanted; i++) this.start();
  }

  private start(): void {
    const resourceLimits = { maxOldGenerationSizeMb: this.settings.heapMb };
    const worker = ENTRY.endsWith('.ts')
      ? new Worker(TYPESCRIPT_THREAD, {
          eval: true,
          resourceLimits,
          workerData: { entry: ENTRY, compiler: require.resolve('@swc/core') },
        })
      : new Worker(ENTRY, { resourceLimits });
    const thread: Thread = { worker, ready: false, task: null, budget: null, idle: null };
    this.threads.add(thread);
    worker.on('message', (message: ThreadMessage) => this.answered(thread, message));
    worker.on('error', (err: Error & { code?: string }) =>
      this.ended(
        thread,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `reading it needed more than ${this.settings.heapMb} MB of memory: stopped`
          : `reading it failed: ${err.message}`,
      ),
    );
    worker.on('exit', (code) => this.ended(thread, `its reading thread stopped (exit code ${code})`));
  }

  private assign(thread: Thread, task: Task): void {
    if (thread.idle) clearTimeout(thread.idle);
    thread.task = task;
    // A thread with a document keeps the process alive until its answer; an idle one does not.
    thread.worker.ref();
    thread.budget = setTimeout(() => {
      this.ended(thread, `reading it took longer than ${this.settings.budgetMs / 1000} s: stopped`);
      void thread.worker.terminate();
    }, this.settings.budgetMs);
    const moved: ArrayBuffer[] = [];
    const args = task.args.map((arg) => {
      if (typeof arg !== 'string' || arg.length < MOVED_CHARS) return arg;
      const bytes = new Uint8Array(Buffer.byteLength(arg));
      Buffer.from(bytes.buffer).write(arg);
      moved.push(bytes.buffer);
      return { movedText: bytes };
    });
    thread.worker.postMessage({ id: task.id, kind: task.kind, args }, moved);
  }

  private answered(thread: Thread, message: ThreadMessage): void {
    if ('ready' in message) thread.ready = true;
    else {
      const task = thread.task;
      if (!task || task.id !== message.id) return;
      if (thread.budget) clearTimeout(thread.budget);
      thread.task = null;
      task.resolve('result' in message ? message.result : { problem: message.problem });
    }
    this.dispatch();
    if (!thread.task) this.idle(thread);
  }

  private idle(thread: Thread): void {
    thread.worker.unref();
    thread.idle = setTimeout(() => {
      if (thread.task) return;
      this.threads.delete(thread);
      void thread.worker.terminate();
    }, IDLE_MS);
    thread.idle.unref();
  }

  /** A thread is gone (its budget, its heap, an error, an exit): its document is a problem; once only. */
  private ended(thread: Thread, problem: string): void {
    if (!this.threads.delete(thread)) return;
    if (thread.budget) clearTimeout(thread.budget);
    if (thread.idle) clearTimeout(thread.idle);
    const task = thread.task;
    thread.task = null;
    if (task) task.resolve({ problem });
    // A thread that cannot even start fails the next document instead of being started forever.
    else if (!thread.ready) this.queue.shift()?.resolve({ problem });
    if (!this.closed) this.dispatch();
  }
}
