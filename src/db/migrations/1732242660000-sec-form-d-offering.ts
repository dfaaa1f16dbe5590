import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a Form D says of its offering beyond the round's lead fields (issue 33): the date of first
 * sale, the amount remaining (or that it is indefinite), the number of investors and the federal
 * exemptions claimed, kept with the filing; and the co-issuers' CIKs.
 */
export class SecFormDOffering1732242660000 implements MigrationInterface {
  name = 'SecFormDOffering1732242660000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sec_form_d_filings
        ADD COLUMN first_sale_on date,
        ADD COLUMN amount_remaining_usd numeric,
        ADD COLUMN amount_remaining_indefinite boolean NOT NULL DEFAULT false,
        ADD COLUMN investors integer,
        ADD COLUMN exemptions text[] NOT NULL DEFAULT '{}',
        ADD COLUMN co_issuer_ciks text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sec_form_d_filings
        DROP COLUMN first_sale_on, DROP COLUMN amount_remaining_usd, DROP COLUMN amount_remaining_indefinite,
        DROP COLUMN investors, DROP COLUMN exemptions, DROP COLUMN co_issuer_ciks`);
  }
}
