import { parentPort } from 'node:worker_threads';
import { DOCUMENT_READERS, type DocumentKind } from '../document-readers';

/** A document thread (document-threads.ts): reads one document at a time and answers with what its reader returned. */
const port = parentPort;
if (!port) throw new Error('document-thread.ts runs in a worker thread (DocumentThreads), not on its own');

const decoder = new TextDecoder();
/** A long text comes as the bytes DocumentThreads moved here. */
const textOf = (arg: unknown) =>
  arg && typeof arg === 'object' && 'movedText' in arg ? decoder.decode(arg.movedText as Uint8Array) : arg;

port.on('message', (task: { id: number; kind: DocumentKind; args: unknown[] }) => {
  try {
    const read = DOCUMENT_READERS[task.kind] as (...args: unknown[]) => unknown;
    port.postMessage({ id: task.id, result: read(...task.args.map(textOf)) });
  } catch (err) {
    port.postMessage({ id: task.id, problem: `could not be read: ${(err as Error).message}` });
  }
});
port.postMessage({ ready: true });
