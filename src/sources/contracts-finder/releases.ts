import { parseOcdsAwards, type OcdsPublisher } from '../kit/ocds-awards';
import type { AwardPage, AwardWindow } from '../kit/award-feed';

/**
 * Contracts Finder's OCDS search
 * (contractsfinder.service.gov.uk/apidocumentation/Notices/1/GET-Published-Notice-OCDS-Search):
 * `GET /Published/Notices/OCDS/Search?stages=award&publishedFrom=…&publishedTo=…&limit=…[&cursor=…]`,
 * no key, ISO 8601 dates; an OCDS release package, paged as Find a Tender's by the `cursor` of
 * `links.next` (docs/decisions/award-winners.md: the one paging the research could not verify).
 * Too many requests are refused with a 403, to be left alone for 5 minutes.
 */
export const CONTRACTS_FINDER_HOST = 'www.contractsfinder.service.gov.uk';
const SEARCH_URL = `https://${CONTRACTS_FINDER_HOST}/Published/Notices/OCDS/Search`;

export function contractsFinderPageUrl(window: AwardWindow, limit: number, cursor: string | null): string {
  const params = new URLSearchParams({
    stages: 'award',
    publishedFrom: window.from.toISOString().slice(0, 19),
    publishedTo: window.to.toISOString().slice(0, 19),
    limit: String(limit),
  });
  if (cursor) params.set('cursor', cursor);
  return `${SEARCH_URL}?${params.toString()}`;
}

/** Contracts Finder's ocids are `ocds-b5fd17-<notice id>`; the notice's page is under that id. */
const NOTICE_OCID = /^ocds-b5fd17-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const CONTRACTS_FINDER: OcdsPublisher = {
  keyPrefix: 'cf',
  noticeLink: ({ ocid }) => {
    const notice = NOTICE_OCID.exec(ocid)?.[1];
    return notice ? `https://${CONTRACTS_FINDER_HOST}/Notice/${notice.toLowerCase()}` : null;
  },
};

/** One release package of Contracts Finder as awards (read in a document thread). */
export const parseContractsFinderPackage = (text: string): AwardPage | { problem: string } =>
  parseOcdsAwards(text, CONTRACTS_FINDER);
