import { randomBytes } from 'node:crypto';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { migrate, openDatabase } from './db/data-source';
import { rows } from './db/sql';
import { createServices } from './services';

export interface DemoAccount {
  accountId: string;
  apiKey: string;
  webhookSecret: string;
  /** The demo person's dashboard sign-in; the password exists only in this answer. */
  email: string;
  password: string;
}

export const DEMO_EMAIL = 'demo@example.com';

export const DEMO_ACCOUNT_NAME = 'Demo account';
const DEMO_CREDITS = 1000;

/**
 * Brings the database to the current schema and, on a first start outside production,
 * creates the demo account. The key is returned only on the start that created it.
 */
export async function prepare(env: NodeJS.ProcessEnv): Promise<{ demo?: DemoAccount }> {
  const config = loadConfig(env);
  await migrate(config.DATABASE_URL);
  if (config.NODE_ENV === 'production') return {};
  const db = await openDatabase(config.DATABASE_URL, 2);
  try {
    const services = createServices({ db, config, logger: createLogger('warn') });
    const [{ count }] = await rows<{ count: number }>(db, `SELECT count(*)::int AS count FROM accounts`);
    if (count > 0) return {};
    const account = await services.accounts.create(DEMO_ACCOUNT_NAME, DEMO_CREDITS);
    const key = await services.apiKeys.create(account.id, { name: 'demo' });
    // The demo person joins as its owner the way anyone invited does.
    const password = randomBytes(12).toString('base64url');
    const invite = await services.members.createInvite(account.id, { role: 'owner' });
    await services.members.acceptInvite(invite.token, { email: DEMO_EMAIL, password });
    return {
      demo: {
        accountId: account.id,
        apiKey: key.apiKey,
        webhookSecret: key.webhookSecret,
        email: DEMO_EMAIL,
        password,
      },
    };
  } finally {
    await db.destroy();
  }
}
