import type { EvaluationFilter, ReadColumns } from '../../signal-types/kit/evaluation-rules';

/** What the filter below reads; the change trigger must watch each (test/evaluation/watched-columns.test.ts). */
export const SUPPRESSION_RULE_READS: ReadColumns = { companies: ['domain', 'linkedin_url'], people: ['email'] };

/**
 * The suppression list as one SQL condition over a candidate row (`c` the company, `p` the
 * person, possibly null): true when no entry of the account, account-wide or for this signal
 * (`$1`), names the row's email, its company's domain or the domain of its email, or its
 * company page. Stored values are normalised as the store's columns are, so equality is enough.
 */
export function suppressionFilter(accountId: string, args: unknown[]): EvaluationFilter {
  return {
    field: 'suppressed',
    sql: `NOT EXISTS (SELECT 1 FROM suppressions s
      WHERE s.account_id = $${args.push(accountId)}::uuid AND (s.signal_id IS NULL OR s.signal_id = $1::uuid)
        AND ((s.kind = 'email' AND s.value = lower(p.email))
          OR (s.kind = 'domain' AND (s.value = c.domain OR s.value = split_part(lower(p.email), '@', 2)))
          OR (s.kind = 'company_url' AND s.value = c.linkedin_url)))`,
  };
}
