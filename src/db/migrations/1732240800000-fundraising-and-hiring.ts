import { MigrationInterface, QueryRunner } from 'typeorm';
import { jobPostingProfile } from '../../catalogue/market-signals';

/**
 * Market-wide fundraising and hiring signals. A job posting's department, seniority and place
 * are read from its title and location once, when it is ingested, so that a hiring signal's
 * filters are plain SQL; postings already stored get theirs here. Market-wide signals walk
 * one event type in time order, which `events (type, occurred_at)` serves.
 */
export class FundraisingAndHiring1732240800000 implements MigrationInterface {
  name = 'FundraisingAndHiring1732240800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events
      ADD COLUMN job_department text, ADD COLUMN job_seniority text,
      ADD COLUMN job_country_code text, ADD COLUMN job_region_code text, ADD COLUMN job_city text`);
    await q.query(`CREATE INDEX IF NOT EXISTS events_type_occurred ON events (type, occurred_at)`);
    // Lead fields the specification fills "only with enrichment" and the provider's person record may carry.
    await q.query(`ALTER TABLE companies ADD COLUMN homepage_title text, ADD COLUMN meta_description text`);
    await q.query(`ALTER TABLE people ADD COLUMN sales_navigator_url text`);
    for (let after = ''; ;) {
      const rows: { id: string; title: string | null; location: string | null }[] = await q.query(
        `SELECT id, data->>'job_offer_title' AS title, data->>'job_offer_location' AS location FROM events
         WHERE type IN ('job_offers', 'recruitment_campaign') AND id > $1 ORDER BY id LIMIT 1000`,
        [after],
      );
      if (rows.length === 0) break;
      const profiles = rows.map((row) => jobPostingProfile(row.title, row.location));
      await q.query(
        `UPDATE events e SET job_department = r.department, job_seniority = r.seniority,
           job_country_code = r.country_code, job_region_code = r.region_code, job_city = r.city
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
              AS r(id, department, seniority, country_code, region_code, city)
         WHERE e.id = r.id`,
        [
          rows.map((row) => row.id),
          profiles.map((p) => p.department),
          profiles.map((p) => p.seniority),
          profiles.map((p) => p.countryCode),
          profiles.map((p) => p.regionCode),
          profiles.map((p) => p.city),
        ],
      );
      after = rows[rows.length - 1].id;
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE people DROP COLUMN sales_navigator_url`);
    await q.query(`ALTER TABLE companies DROP COLUMN homepage_title, DROP COLUMN meta_description`);
    await q.query(`DROP INDEX IF EXISTS events_type_occurred`);
    await q.query(`ALTER TABLE events DROP COLUMN job_department, DROP COLUMN job_seniority,
      DROP COLUMN job_country_code, DROP COLUMN job_region_code, DROP COLUMN job_city`);
  }
}
