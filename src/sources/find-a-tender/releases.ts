import { parseOcdsAwards, type OcdsPublisher } from '../kit/ocds-awards';
import type { AwardPage, AwardWindow } from '../kit/award-feed';

/**
 * Find a Tender's OCDS API (find-tender.service.gov.uk/apidocumentation/1.0/GET-ocdsReleasePackages):
 * `GET /api/1.0/ocdsReleasePackages?stages=award&updatedFrom=…&updatedTo=…&limit=…[&cursor=…]`,
 * no key, dates `YYYY-MM-DDTHH:MM:SS`; an OCDS release package whose `links.next` carries the
 * next page's `cursor` and is absent on the last page. Over its rate it answers 429 with a
 * plain-text body (`Rate limit of 12 exceeded…`) and `Retry-After` in seconds.
 */
export const FIND_A_TENDER_HOST = 'www.find-tender.service.gov.uk';
const PACKAGES_URL = `https://${FIND_A_TENDER_HOST}/api/1.0/ocdsReleasePackages`;

/** The page of award releases updated in `window`, after `cursor`. */
export function findATenderPageUrl(window: AwardWindow, limit: number, cursor: string | null): string {
  const params = new URLSearchParams({
    stages: 'award',
    updatedFrom: secondOf(window.from),
    updatedTo: secondOf(window.to),
    limit: String(limit),
  });
  if (cursor) params.set('cursor', cursor);
  return `${PACKAGES_URL}?${params.toString()}`;
}

const secondOf = (at: Date) => at.toISOString().slice(0, 19);

/** A Find a Tender notice number (`012345-2026`), which its release's id is. */
const NOTICE_NUMBER = /^\d{6}-\d{4}$/;

const FIND_A_TENDER: OcdsPublisher = {
  keyPrefix: 'fts',
  noticeLink: ({ id }) =>
    NOTICE_NUMBER.test(id) ? `https://${FIND_A_TENDER_HOST}/Notice/${encodeURIComponent(id)}` : null,
};

/** One release package of Find a Tender as awards (read in a document thread). */
export const parseFindATenderPackage = (text: string): AwardPage | { problem: string } =>
  parseOcdsAwards(text, FIND_A_TENDER);
