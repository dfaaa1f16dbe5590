import type { FetchAnswer, PoliteFetch, RequestLimits } from '../polite-fetch';

/** SEC blocks a client over its rate for ten minutes (fair-access policy) and answers 403 meanwhile. */
export const SEC_REFUSAL_BACKOFF_MS = 600_000;

/**
 * A GET to EDGAR under its fair-access rules (the pace of www.sec.gov is src/sources/kit/host-pacing.ts):
 * a 403 from SEC is its refusal of a client over the rate, so every worker holds off and the item retries after.
 */
export async function edgarGet(
  fetcher: PoliteFetch,
  url: string,
  accept: string,
  limits: RequestLimits = {},
): Promise<FetchAnswer> {
  const answer = await fetcher.get(url, accept, {}, limits);
  if (answer.status === 'failed' && answer.statusCode === 403) {
    throw await fetcher.refused(url, 403, SEC_REFUSAL_BACKOFF_MS);
  }
  return answer;
}
