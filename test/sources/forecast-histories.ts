import { company, person, type IngestRecord } from '../leads/fixtures';

/**
 * Written histories the forecast rules read: companies with their rounds, postings, leaders and
 * news, as sources store them: ids with their source's prefix, URLs where the source has one,
 * and what real records lack or garble (a round with neither stage nor amount, an amount as an
 * empty string, a title in German, an article without a headline).
 */
export class History {
  readonly records: IngestRecord[] = [];
  private n = 0;

  constructor(private readonly tag: string) {}

  company(slug: string, overrides: Parameters<typeof company>[1] = {}): string {
    const record = company(`${this.tag}-${slug}`, overrides);
    this.records.push(record);
    return record.id;
  }

  round(companyId: string, day: string, data: Record<string, string | number> = {}): string {
    return this.event('sec-form-d', 'fundraising', companyId, day, { announcement_date: day, ...data });
  }

  posting(
    companyId: string,
    day: string,
    title = 'Software Engineer',
    location = 'Austin, Texas, United States',
  ): string {
    const id = this.nextId('job-boards');
    this.records.push({
      kind: 'event',
      id,
      type: 'job_offers',
      occurredAt: `${day}T00:00:00Z`,
      companyId,
      personId: null,
      data: {
        job_offer_title: title,
        job_offer_url: `https://boards.greenhouse.io/${companyId}/jobs/${id.split(':')[1]}`,
        job_offer_location: location,
        job_offer_date: day,
      },
    });
    return id;
  }

  /** A leader starting at the company (a `new_decision_makers` event of a person with that title). */
  leader(companyId: string, day: string, title: string): string {
    const who = person(`${this.tag}-${++this.n}`, companyId, { title, startedOn: day.slice(0, 7) });
    this.records.push(who);
    const [year, month] = day.split('-');
    return this.event(
      'companies-house',
      'new_decision_makers',
      companyId,
      day,
      {
        new_job_started_on: `${month}/${year}`,
        new_job_start_month: `${year}-${month}`,
      },
      who.id,
    );
  }

  news(companyId: string, day: string, kind: string, headline: string, summary = ''): string {
    const id = this.nextId('news');
    this.records.push({
      kind: 'event',
      id,
      type: 'company_news',
      occurredAt: `${day}T08:00:00Z`,
      companyId,
      personId: null,
      data: {
        news_event_type: kind,
        news_headline: headline,
        news_url: `https://news.example.com/${id.split(':')[1]}`,
        news_summary: summary,
        news_event_date: day,
      },
    });
    return id;
  }

  deal(companyId: string, day: string, role: 'acquiree' | 'acquirer'): string {
    return this.event('ingested', 'mergers_acquisitions', companyId, day, {
      deal_type: 'Acquisition',
      watchlist_role: role,
      announcement_date: day,
    });
  }

  private event(
    source: string,
    type: string,
    companyId: string,
    day: string,
    data: Record<string, string | number>,
    personId: string | null = null,
  ): string {
    const id = this.nextId(source);
    this.records.push({ kind: 'event', id, type, occurredAt: `${day}T00:00:00Z`, companyId, personId, data });
    return id;
  }

  private nextId(source: string): string {
    const serial = `${this.tag}-${++this.n}`;
    return source === 'ingested' ? `ev-${serial}` : `${source}:${serial}`;
  }
}

/** `count` days from `first`, one a day. */
export function days(first: string, count: number): string[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}
