import type { IncomingMessage } from 'node:http';
import { AppError } from '../src/errors';

/** A body the JSON parser leaves alone (NDJSON, CSV), read here with the route's own size limit. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const tooLarge = () =>
    new AppError(413, 'INVALID_REQUEST', `Request body is larger than ${limit / 1024 / 1024} MB; split the file`);
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
