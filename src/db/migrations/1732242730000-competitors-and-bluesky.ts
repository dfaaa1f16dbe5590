import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Competitors of an account (name, domain, optional Bluesky handles), and the bluesky source
 * (docs/sources/bluesky.md): the handle found for each watched company, the posts read of each
 * account, every like, repost and follow seen (with the event and person made of it, so a
 * deletion removes them), and the accounts whose followers have a first full read.
 */
export class CompetitorsAndBluesky1732242730000 implements MigrationInterface {
  name = 'CompetitorsAndBluesky1732242730000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE competitors (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        domain text NOT NULL,
        bluesky_handles text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (account_id, domain)
      )`);
    await q.query(`CREATE INDEX competitors_domain ON competitors (domain)`);
    await q.query(`INSERT INTO sources (name) VALUES ('bluesky') ON CONFLICT (name) DO NOTHING`);
    await q.query(`
      CREATE TABLE bluesky_company_handles (
        company_id text PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
        handle text,
        found_by text,
        checked_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE bluesky_accounts (
        handle text PRIMARY KEY,
        did text,
        followers_read_at timestamptz,
        gone_at timestamptz,
        read_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE bluesky_posts (
        uri text PRIMARY KEY,
        cid text NOT NULL,
        author_handle text NOT NULL,
        rkey text NOT NULL,
        posted_at timestamptz NOT NULL,
        first_seen_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX bluesky_posts_author ON bluesky_posts (author_handle, posted_at)`);
    await q.query(`
      CREATE TABLE bluesky_reactions (
        subject text NOT NULL,
        kind text NOT NULL,
        reactor_did text NOT NULL,
        reactor_handle text NOT NULL,
        reactor_name text NOT NULL DEFAULT '',
        reactor_description text NOT NULL DEFAULT '',
        author_handle text NOT NULL,
        event_id text,
        person_id text,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (subject, kind, reactor_did)
      )`);
    await q.query(`CREATE INDEX bluesky_reactions_reactor ON bluesky_reactions (reactor_did)`);
    await q.query(`CREATE INDEX bluesky_reactions_author ON bluesky_reactions (author_handle)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE bluesky_reactions`);
    await q.query(`DROP TABLE bluesky_posts`);
    await q.query(`DROP TABLE bluesky_accounts`);
    await q.query(`DROP TABLE bluesky_company_handles`);
    await q.query(`DELETE FROM sources WHERE name = 'bluesky'`);
    await q.query(`DROP TABLE competitors`);
  }
}
