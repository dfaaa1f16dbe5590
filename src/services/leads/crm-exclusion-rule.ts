import type { CrmExclusions } from '../../db/entities/signal';
import type { EvaluationFilter, ReadColumns } from '../../signal-types/kit/evaluation-rules';

/** What the filter below reads; the change trigger must watch each (test/evaluation/watched-columns.test.ts). */
export const CRM_EXCLUSION_RULE_READS: ReadColumns = { companies: ['domain'], people: ['email'] };

/**
 * A signal's exclusions from the customer's CRM as one SQL condition over a candidate row (`c`
 * the company, `p` the person, possibly null): true unless the connection's synced records
 * hold the person's email (`excludeExistingCrmContacts`) or the company's domain
 * (`excludeCrmCompanies`). A broken connection excludes nothing (the issue: it "stops
 * excluding and says so"); its records stay for a reconnect to catch up from. Records are
 * normalised as the store's columns are, so equality is enough. Absent when the signal
 * excludes nothing, so its funnel has no such stage.
 */
export function crmExclusionFilter(exclusions: CrmExclusions | null, args: unknown[]): EvaluationFilter | undefined {
  if (!exclusions) return undefined;
  const tests: string[] = [];
  if (exclusions.excludeExistingCrmContacts) tests.push(`(r.kind = 'email' AND r.value = lower(p.email))`);
  if (exclusions.excludeCrmCompanies) tests.push(`(r.kind = 'domain' AND r.value = c.domain)`);
  if (tests.length === 0) return undefined;
  return {
    field: 'crmExcluded',
    sql: `NOT EXISTS (SELECT 1 FROM crm_records r
      JOIN crm_connections k ON k.id = r.connection_id AND k.status = 'connected'
      WHERE r.connection_id = $${args.push(exclusions.connectionId)}::uuid AND (${tests.join(' OR ')}))`,
  };
}
