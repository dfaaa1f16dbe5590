import type { EventRecordInput } from './records';

const DAY_MS = 86_400_000;

/** Days before now the stories' forecasts fire around: far enough that every horizon but the IPO's is over. */
export const DEMO_STORY_FORECAST_DAYS_AGO = 500;

interface StoryCompany {
  id: string;
  name: string;
}

/**
 * Older histories of a few demo companies (docs/decisions/forecasts.md, "Backtest") made so that
 * the forecast rules fire about DEMO_STORY_FORECAST_DAYS_AGO days ago, and some forecasts come
 * true and some do not: a round after "likely to raise" and none after another, a sale after
 * "acquisition target" and none after another, hiring going on after "expected to scale" and
 * stopping after another, an IPO after "path to IPO". `npm run admin -- backtest-forecasts
 * --from <600 days ago> --to <400 days ago>` shows them. Needs the first seven companies.
 */
export function forecastStories(now: Date, companies: readonly StoryCompany[]): EventRecordInput[] {
  if (companies.length < 7) return [];
  const [raised, quiet, sold, stalled, scaled, slowed, listed] = companies as [
    StoryCompany,
    StoryCompany,
    StoryCompany,
    StoryCompany,
    StoryCompany,
    StoryCompany,
    StoryCompany,
  ];
  const events: EventRecordInput[] = [];
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS);
  const day = (daysAgo: number) => at(daysAgo).toISOString().slice(0, 10);
  const add = (
    company: StoryCompany,
    type: EventRecordInput['type'],
    daysAgo: number,
    data: Record<string, string | number>,
  ) =>
    events.push({
      kind: 'event',
      id: `demo-story-${events.length}`,
      type,
      occurredAt: at(daysAgo).toISOString(),
      companyId: company.id,
      data,
    });
  const round = (company: StoryCompany, daysAgo: number, stage: string, amount: number) =>
    add(company, 'fundraising', daysAgo, {
      funding_type: stage,
      funding_amount_usd: amount,
      announcement_date: day(daysAgo),
    });
  const posting = (company: StoryCompany, daysAgo: number, title: string, location = 'Austin, Texas, United States') =>
    add(company, 'job_offers', daysAgo, {
      job_offer_title: title,
      job_offer_location: location,
      job_offer_url: `https://boards.greenhouse.io/${company.id}/jobs/${events.length}`,
      job_offer_date: day(daysAgo),
      job_offer_published_date: day(daysAgo),
    });
  const news = (company: StoryCompany, daysAgo: number, kind: string, headline: string) =>
    add(company, 'company_news', daysAgo, {
      news_event_type: kind,
      news_headline: headline,
      news_url: `https://news.example.com/${company.id}/${events.length}`,
      news_event_date: day(daysAgo),
    });

  // Likely to raise: a seed round 14 months before, hiring growing; one raises again, one does not.
  for (const company of [raised, quiet]) {
    round(company, 930, 'Seed', 3_000_000);
    posting(company, 620, 'Software Engineer');
    for (const daysAgo of [560, 540, 520, 505]) posting(company, daysAgo, 'Software Engineer');
  }
  round(raised, 380, 'Series A', 14_000_000);
  // Acquisition target: no round for years, hiring stopped, layoffs; one is sold, one is not.
  for (const company of [sold, stalled]) {
    round(company, 1800, 'Series A', 6_000_000);
    for (const daysAgo of [800, 780, 760]) posting(company, daysAgo, 'Account Executive');
    news(company, 560, 'restructuring', `${company.name} announces layoffs and restructuring`);
  }
  add(sold, 'mergers_acquisitions', 400, {
    deal_type: 'Acquisition',
    watchlist_role: 'acquiree',
    announcement_date: day(400),
  });
  // Expected to scale: postings up across engineering and sales, in a new city; one goes on hiring, one stops.
  for (const company of [scaled, slowed]) {
    posting(company, 620, 'Software Engineer');
    for (const daysAgo of [585, 560, 530]) posting(company, daysAgo, 'Software Engineer');
    for (const daysAgo of [575, 545, 515]) posting(company, daysAgo, 'Account Executive', 'Berlin, Germany');
  }
  for (let daysAgo = 500; daysAgo >= 360; daysAgo -= 20) posting(scaled, daysAgo, 'Software Engineer');
  posting(slowed, 470, 'Software Engineer');
  // Path to IPO: a late round, an investor-relations hire, then the listing.
  round(listed, 900, 'Series D', 150_000_000);
  posting(listed, 520, 'Director, Investor Relations');
  news(listed, 300, 'funding', `${listed.name} prices its initial public offering`);
  return events;
}
