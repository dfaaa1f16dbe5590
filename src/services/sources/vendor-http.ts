import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { Config } from '../../config';
import type { VendorHttp, VendorReply, VendorRequest } from '../../providers/sources/people-data/vendor';
import { HostPacing } from './host-pacing';
import type { PoliteFetch } from './polite-fetch';

/**
 * Requests to a paid vendor's API (a key in a header, POST bodies), sent as the polite fetcher
 * sends its own: one request per host per interval across every worker, SOURCES_HOST_MAP
 * honoured, a time-out and a size cap. Answers come back whatever their status, for the
 * vendor's file to read (its 429 says in its own headers how long to wait).
 */
export function vendorHttp(
  db: DataSource,
  fetcher: PoliteFetch,
  config: Pick<Config, 'SOURCES_TIMEOUT_MS' | 'SOURCES_MAX_RESPONSE_BYTES'>,
): VendorHttp {
  const pacing = new HostPacing(db);
  return async (request: VendorRequest): Promise<VendorReply> => {
    const host = new URL(request.url).host.toLowerCase();
    const wait = await pacing.claim(host, fetcher.intervalOf(host));
    if (wait > 0) await sleep(wait);
    const response = await fetch(fetcher.targetOf(request.url), {
      method: request.method,
      headers: { 'user-agent': fetcher.userAgent, ...request.headers },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(config.SOURCES_TIMEOUT_MS),
    });
    const body = await cappedText(response, config.SOURCES_MAX_RESPONSE_BYTES, host);
    return { status: response.status, headers: Object.fromEntries(response.headers.entries()), body };
  };
}

/** The answer's text, read no further than `cap` bytes. */
async function cappedText(response: Response, cap: number, host: string): Promise<string> {
  if (!response.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > cap) throw new Error(`${host}: the answer is larger than ${cap} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
