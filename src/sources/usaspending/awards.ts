import { API_JSON_LIMITS, readJson } from '../kit/document-limits';
import type { AwardPage, AwardWindow } from '../kit/award-feed';
import type { ContractAward } from '../kit/public-tenders';
import { cleanName } from '../kit/award-winners';

/**
 * USAspending's award search (api.usaspending.gov, usaspending-api
 * `api_contracts/contracts/v2/search/spending_by_award.md`): `POST /api/v2/search/spending_by_award/`,
 * no key, a JSON body of `filters` (`award_type_codes` A–D are the contracts; `time_period`
 * with a `date_type`), the `fields` wanted, `page` (from 1) and `limit` (1–100); the answer is
 * `{limit, results: [{internal_id, "Award ID", ...}], page_metadata: {page, hasNext}}`.
 * Page numbers reach 50,000 rows (500 pages of 100) at most.
 */
export const USASPENDING_HOST = 'api.usaspending.gov';
export const USASPENDING_SEARCH_URL = `https://${USASPENDING_HOST}/api/v2/search/spending_by_award/`;
const MAX_ROWS = 50_000;

export const USASPENDING_FIELDS = [
  'Award ID',
  'Recipient Name',
  'Recipient UEI',
  'Award Amount',
  'Start Date',
  'Awarding Agency',
  'Awarding Sub Agency',
  'Description',
  'generated_internal_id',
] as const;

/**
 * The search body of one page: contracts (A–D) whose first transaction falls in `window`
 * (`new_awards_only`: new awards, not modifications of old ones), newest first.
 */
export function usaspendingSearchBody(window: AwardWindow, page: number, limit: number): string {
  return JSON.stringify({
    filters: {
      award_type_codes: ['A', 'B', 'C', 'D'],
      time_period: [
        {
          start_date: window.from.toISOString().slice(0, 10),
          end_date: window.to.toISOString().slice(0, 10),
          date_type: 'new_awards_only',
        },
      ],
    },
    fields: USASPENDING_FIELDS,
    page,
    limit,
    sort: 'Award Amount',
    order: 'desc',
  });
}

/** The award's page on USAspending.gov, by its generated id (`CONT_AWD_…`). */
const awardLink = (generatedId: string) => `https://www.usaspending.gov/award/${encodeURIComponent(generatedId)}`;

const GENERATED_ID = /^[A-Z0-9_.-]{5,200}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** One page of the search as awards; `next` the next page's number while `hasNext` and within 50,000 rows. */
export function parseUsaspendingPage(text: string, page: number, limit: number): AwardPage | { problem: string } {
  const read = readJson(text, API_JSON_LIMITS);
  if ('problem' in read) return read;
  const body = read.value;
  if (!isRecord(body) || !Array.isArray(body.results))
    return { problem: 'not a USAspending award search answer: no results' };
  const awards: ContractAward[] = [];
  const unreadable: string[] = [];
  for (const [i, raw] of body.results.entries()) {
    const award = isRecord(raw) ? awardOf(raw) : null;
    if (award === 'no-recipient') continue;
    if (award) awards.push(award);
    else
      unreadable.push(isRecord(raw) && textOf(raw['Award ID']) ? textOf(raw['Award ID'])!.slice(0, 80) : `#${i + 1}`);
  }
  const meta = isRecord(body.page_metadata) ? body.page_metadata : {};
  const hasNext = meta.hasNext === true && body.results.length > 0 && (page + 1) * limit <= MAX_ROWS;
  return { awards, next: hasNext ? String(page + 1) : null, unreadable };
}

function awardOf(raw: Record<string, unknown>): ContractAward | 'no-recipient' | null {
  const generatedId = textOf(raw.generated_internal_id);
  const startDate = textOf(raw['Start Date']);
  if (!generatedId || !GENERATED_ID.test(generatedId) || !startDate || !DAY.test(startDate)) return null;
  const name = cleanName(textOf(raw['Recipient Name']));
  // Redacted recipients ("MULTIPLE RECIPIENTS", none at all) name no company to match.
  if (!name || /^(multiple recipients|redacted due to pii|miscellaneous foreign awardees)/i.test(name))
    return 'no-recipient';
  const amount = typeof raw['Award Amount'] === 'string' ? Number(raw['Award Amount']) : raw['Award Amount'];
  const agency = cleanName(textOf(raw['Awarding Agency']));
  const subAgency = cleanName(textOf(raw['Awarding Sub Agency']));
  const awardId = textOf(raw['Award ID']) ?? generatedId;
  return {
    key: `usaspending:${generatedId}`.slice(0, 160),
    title: (cleanName(textOf(raw.Description)) ?? `Contract ${awardId}`).slice(0, 2000),
    buyer: agency && subAgency && subAgency !== agency ? `${subAgency} (${agency})` : (agency ?? subAgency ?? ''),
    value: typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 ? { amount, currency: 'USD' } : null,
    valueLabel: 'value',
    // The period of performance may start after the award is published: never a day to come.
    awardedOn: startDate <= today() ? startDate : today(),
    link: awardLink(generatedId),
    // No domain or register number: a recipient is matched by name; its UEI is no number the store keeps.
    winners: [{ name, country: null }],
  };
}

const today = () => new Date().toISOString().slice(0, 10);

function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
