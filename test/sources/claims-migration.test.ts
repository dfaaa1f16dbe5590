import type { DataSource } from 'typeorm';
import { openDatabase } from '../../src/db/data-source';
import { Signal } from '../../src/db/entities/signal';
import { CompanyClaims1732242650000 } from '../../src/db/migrations/1732242650000-company-claims';
import { Ingestion } from '../../src/services/ingestion/ingestion';
import { findCandidates } from '../../src/services/leads/evaluation';
import { signalType } from '../../src/signal-types/registry';
import { createTestDatabase } from '../setup/database';

/**
 * The migration of existing data to "claims are not facts" (docs/decisions/claims.md): the
 * store as the old company-profiles source left it (`site:` companies named by the earliest
 * watchlist entry, their events shared), migrated, then read by the evaluation.
 */

let database: { url: string; drop(): Promise<void> };
let db: DataSource;
const HOUR_MS = 3_600_000;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR_MS).toISOString();

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase(database.url, 2);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

async function account(name: string): Promise<string> {
  const [row] = await db.query(`INSERT INTO accounts (name, credit_balance) VALUES ($1, 100) RETURNING id`, [name]);
  return row.id;
}

async function signal(accountId: string, typeId: string, config: Record<string, unknown>): Promise<Signal> {
  const type = signalType(typeId);
  return db.getRepository(Signal).save({
    accountId,
    apiKeyId: null,
    name: typeId,
    signalTypeId: typeId,
    status: 'active',
    webhookUrl: null,
    config: type.storedConfig ? type.storedConfig(config) : config,
    destinations: {},
    dailyLeadLimit: 100,
    duplicateHandling: typeId === 'hiring' ? 'allow' : type.defaultDuplicateHandling,
  });
}

async function watch(signalId: string, entry: { name: string | null; domain: string | null }): Promise<void> {
  const identity = entry.domain ? `domain:${entry.domain}` : `name:${entry.name!.toLowerCase()}`;
  await db.query(
    `INSERT INTO watched_companies (signal_id, kind, name, domain, name_key, identity) VALUES ($1, 'company', $2, $3, $4, $5)`,
    [signalId, entry.name, entry.domain, entry.name?.toLowerCase() ?? null, identity],
  );
}

test('site: companies adopted from watchlists become claimed under their domain, their claimants recorded, their events reaching only them', async () => {
  const migration = new CompanyClaims1732242650000();
  const runner = db.createQueryRunner();
  let attacker = '';
  let plant: Signal, byName: Signal, hiring: Signal, ownSite: Signal;
  try {
    await migration.down(runner);

    // The store as the old source left it.
    attacker = await account('Attacker');
    const other = await account('Other');
    plant = await signal(attacker, 'account_watchlist', {});
    await watch(plant.id, { name: 'Stripe', domain: 'attacker-payments.com' });
    byName = await signal(other, 'account_watchlist', {});
    await watch(byName.id, { name: 'Stripe', domain: null });
    hiring = await signal(other, 'hiring', { keywords: ['Engineer'] });
    ownSite = await signal(other, 'account_watchlist', {});
    await watch(ownSite.id, { name: 'Acme', domain: 'acme-tools.com' });
    const ingestion = new Ingestion(db);
    const stored = await ingestion.ingest([
      { kind: 'company', id: 'site:attacker-payments.com', name: 'Stripe', domain: 'attacker-payments.com' },
      { kind: 'company', id: 'site:acme-tools.com', name: 'Acme', domain: 'acme-tools.com' },
      { kind: 'company', id: 'co-acme', name: 'Acme Tools Inc', domain: 'acme-tools.com' },
      ...['site:attacker-payments.com', 'site:acme-tools.com'].map((companyId, i) => ({
        kind: 'event',
        id: `ev-${i}`,
        type: 'job_offers',
        occurredAt: hoursAgo(i + 1),
        companyId,
        data: { job_offer_title: 'Software Engineer', job_offer_url: `https://jobs.example.com/${i}` },
      })),
    ]);
    expect(stored.rejected).toBe(0);
    await migration.up(runner);
  } finally {
    await runner.release();
  }

  expect(await db.query(`SELECT id, name, name_key, provenance FROM companies ORDER BY id`)).toEqual([
    { id: 'co-acme', name: 'Acme Tools Inc', name_key: 'acme tools inc', provenance: 'trusted' },
    // Corroborated by the trusted record of its domain.
    { id: 'site:acme-tools.com', name: 'Acme Tools Inc', name_key: 'acme tools inc', provenance: 'trusted' },
    {
      id: 'site:attacker-payments.com',
      name: 'attacker-payments.com',
      name_key: 'attacker-payments.com',
      provenance: 'claimed',
    },
  ]);
  expect(await db.query(`SELECT company_id, account_id, claimed_name FROM company_claims`)).toEqual([
    { company_id: 'site:attacker-payments.com', account_id: attacker, claimed_name: 'Stripe' },
  ]);

  const after = async (s: Signal) =>
    (await findCandidates(db.manager, s, new Date(), 10)).map((c) => [c.event_id, c.company_name]);
  expect(await after(byName)).toEqual([]);
  expect(await after(hiring)).toEqual([['ev-1', 'Acme Tools Inc']]);
  expect(await after(ownSite)).toEqual([['ev-1', 'Acme Tools Inc']]);
  // The claimant still sees its claimed company's event, under the name its own entry gave.
  expect(await after(plant)).toEqual([['ev-0', 'Stripe']]);

  // The change trigger watches provenance: a claimed company turned trusted is a change evaluations read.
  const [{ before }] = await db.query(
    `SELECT change_xid::text AS before FROM companies WHERE id = 'site:attacker-payments.com'`,
  );
  await db.query(`UPDATE companies SET provenance = 'trusted' WHERE id = 'site:attacker-payments.com'`);
  const [{ now }] = await db.query(
    `SELECT change_xid::text AS now FROM companies WHERE id = 'site:attacker-payments.com'`,
  );
  expect(BigInt(now)).toBeGreaterThan(BigInt(before));
});
