import http from 'node:http';
import https from 'node:https';

const MAX_LINE_CHARS = 1024 * 1024;

/** Why a read of a stream ended. */
export type StreamEnd =
  | { status: 'read'; reason: 'closed' | 'time' | 'enough' }
  | { status: 'refused'; statusCode: number; retryAfter: string | null }
  | { status: 'failed'; error: string };

export interface StreamRead {
  headers: Record<string, string>;
  agent: http.Agent;
  /** The connection's idle limit: no byte (heartbeats included) for this long is a disconnect. */
  idleMs: number;
  /** The read ends after this long, however much is coming. */
  readForMs: number;
  /** Each line as it comes; answering false ends the read. */
  onLine(line: string): Promise<boolean>;
}

/**
 * Reads a long-running HTTP answer of newline-delimited JSON (the Companies House streaming
 * API: "conceptually, an infinitely long file") line by line, waiting for each line's handling.
 * The server closing the connection (its nightly disconnect) ends the read as `closed`; a last
 * line cut off mid-way is not handed on, so the next read resumes before it.
 */
export async function readLines(target: URL, read: StreamRead): Promise<StreamEnd> {
  const send = target.protocol === 'https:' ? https.request : http.request;
  const req = send(target, { method: 'GET', headers: read.headers, agent: read.agent, timeout: read.idleMs });
  let res: http.IncomingMessage;
  try {
    res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
      req.on('timeout', () => req.destroy(new Error(`no answer within ${read.idleMs} ms`)));
      req.end();
    });
  } catch (err) {
    return { status: 'failed', error: (err as Error).message };
  }
  const statusCode = res.statusCode ?? 0;
  if (statusCode !== 200) {
    res.resume();
    const retryAfter = res.headers['retry-after'];
    return {
      status: 'refused',
      statusCode,
      retryAfter: (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) ?? null,
    };
  }
  let stopped: 'time' | 'enough' | null = null;
  const timer = setTimeout(() => {
    stopped = 'time';
    req.destroy();
  }, read.readForMs);
  res.setEncoding('utf8');
  let buffer = '';
  try {
    reading: for await (const chunk of res as AsyncIterable<string>) {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end).replace(/\r$/, '');
        buffer = buffer.slice(end + 1);
        if (!(await read.onLine(line))) {
          stopped = 'enough';
          req.destroy();
          break reading;
        }
      }
      // A line is one event of a few KB: an answer that never ends its line is not the stream.
      if (buffer.length > MAX_LINE_CHARS) {
        req.destroy();
        return { status: 'failed', error: `a line longer than ${MAX_LINE_CHARS / 1024 / 1024} MB: the read stopped` };
      }
    }
  } catch {
    // The connection dropped (or was ended here): what was read stands.
  } finally {
    clearTimeout(timer);
  }
  return { status: 'read', reason: stopped ?? 'closed' };
}
