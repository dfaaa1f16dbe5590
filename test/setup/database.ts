import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate } from '../../src/db/data-source';

const TEMPLATE = 'intent_leads_template';

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onMaintenance<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Migrates a template database once per run; every test file then clones it in milliseconds. */
export async function prepareTestTemplate(serverUrl: string): Promise<void> {
  await onMaintenance(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE}`);
  });
  await migrate(withDatabase(serverUrl, TEMPLATE));
}

/** A fresh, migrated database of this test file's own, so files never see each other's rows. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (global setup)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await onMaintenance(serverUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
        return;
      } catch (err) {
        // Two files cloning at the same instant: the template is briefly "being accessed".
        if (attempt >= 20 || !/being accessed/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  return {
    url: withDatabase(serverUrl, name),
    drop: () =>
      onMaintenance(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
