import { DataSource, EntityManager } from 'typeorm';
import { Account } from '../db/entities/account';
import { notFound } from '../errors';
import { Credits } from './credits';

export class Accounts {
  constructor(
    private readonly db: DataSource,
    private readonly credits: Credits,
  ) {}

  /**
   * A new account with its first credits, both or neither; inside `tx` when given, so a caller's
   * later step can undo both. The grant tells no signal: a new account has none.
   */
  async create(
    name: string,
    initialCredits = 0,
    tx?: EntityManager,
  ): Promise<{ id: string; name: string; creditBalance: number }> {
    const work = async (within: EntityManager) => {
      const account = await within.getRepository(Account).save({ name });
      const creditBalance =
        initialCredits > 0 ? await this.credits.grant(account.id, initialCredits, undefined, within) : 0;
      return { id: account.id, name: account.name, creditBalance };
    };
    return tx ? work(tx) : this.db.transaction(work);
  }

  async require(accountId: string): Promise<Account> {
    const account = await this.db.getRepository(Account).findOneBy({ id: accountId });
    if (!account) throw notFound('Account');
    return account;
  }

  async addCredits(accountId: string, amount: number): Promise<{ creditBalance: number }> {
    await this.require(accountId);
    return { creditBalance: await this.credits.grant(accountId, amount) };
  }
}
