import { DataSource } from 'typeorm';
import { rows } from '../db/sql';
import type { Clock } from '../clock';

export interface DayActivity {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  leads: number;
  creditsSpent: number;
}

/** What an account's signals did day by day: the overview's chart. Days are UTC, as the daily caps. */
export class AccountActivity {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /** The last `days` UTC days up to today (the service clock's, as production's), oldest first; days without activity are zeros. */
  async daily(accountId: string, days = 30, now = this.clock.now()): Promise<DayActivity[]> {
    const activity = await rows<{ day: string; leads: number; credits: number }>(
      this.db,
      `WITH span AS (
         SELECT generate_series(($2::timestamptz AT TIME ZONE 'UTC')::date - ($3::int - 1), ($2::timestamptz AT TIME ZONE 'UTC')::date, interval '1 day')::date AS day
       ),
       produced AS (
         SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS leads FROM leads
          WHERE account_id = $1 AND created_at >= (SELECT min(day) FROM span) AT TIME ZONE 'UTC'
          GROUP BY 1
       ),
       spent AS (
         SELECT (created_at AT TIME ZONE 'UTC')::date AS day, -sum(credits) AS credits FROM credit_ledger
          WHERE account_id = $1 AND credits < 0 AND created_at >= (SELECT min(day) FROM span) AT TIME ZONE 'UTC'
          GROUP BY 1
       )
       SELECT to_char(span.day, 'YYYY-MM-DD') AS day, coalesce(produced.leads, 0) AS leads, coalesce(spent.credits, 0)::float8 AS credits
         FROM span LEFT JOIN produced USING (day) LEFT JOIN spent USING (day) ORDER BY span.day`,
      [accountId, now.toISOString(), days],
    );
    return activity.map((r) => ({
      day: r.day,
      leads: r.leads,
      creditsSpent: r.credits,
    }));
  }
}
