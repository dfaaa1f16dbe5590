import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Client } from 'pg';
import type { Signal } from '../../src/db/entities/signal';
import { CRM_EXCLUSION_RULE_READS, crmExclusionFilter } from '../../src/services/leads/crm-exclusion-rule';
import { SUPPRESSION_RULE_READS, suppressionFilter } from '../../src/services/leads/suppression-rule';
import type { EvaluationPlan, ReadColumns } from '../../src/signal-types/kit/evaluation-rules';
import { SIGNAL_TYPES } from '../../src/signal-types/registry';
import { createTestDatabase } from '../setup/database';
import { configOf } from './scenario';

/**
 * Issue 37, item 4: the change-tracking trigger's hidden contract, checked. Incremental
 * evaluation re-reads a company or person only when a column its trigger watches changes
 * (docs/decisions/incremental-evaluation.md), so every column an evaluation reads must be
 * watched. Each signal type declares what its plan reads (`reads`), as do the suppression and
 * CRM rules; the trigger's columns are read from the migrated database itself (two migrations
 * define them). A second check keeps the declarations honest: the columns the plans' SQL
 * names, over many generated configs, are all declared.
 */

type Table = keyof ReadColumns;

let watched: Record<Table, string[]>;

beforeAll(async () => {
  const database = await createTestDatabase();
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: Table; definition: string }>(
      `SELECT c.relname AS table, pg_get_triggerdef(t.oid) AS definition
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE c.relname IN ('companies', 'people') AND t.tgname = c.relname || '_evaluation_change'`,
    );
    watched = { companies: [], people: [] };
    for (const { table, definition } of rows) {
      watched[table] = [...definition.matchAll(/\bold\.(\w+) IS DISTINCT FROM new\.\1\b/gi)].map((m) => m[1]!);
    }
  } finally {
    await client.end();
    await database.drop();
  }
});

const READERS: [string, ReadColumns][] = [
  ...SIGNAL_TYPES.map((type) => [`the ${type.signalTypeId} type`, type.reads] as [string, ReadColumns]),
  ['the suppression rule', SUPPRESSION_RULE_READS],
  ['the CRM exclusion rule', CRM_EXCLUSION_RULE_READS],
];

test('the trigger watches columns of companies and of people (read from the database)', () => {
  expect(watched.companies).toEqual(expect.arrayContaining(['domain', 'provenance']));
  expect(watched.people).toEqual(expect.arrayContaining(['persona', 'email']));
});

test.each(READERS)('%s: the change trigger watches every column it reads', (_reader, reads) => {
  const unwatched = (table: Table) => reads[table].filter((column) => !watched[table].includes(column));
  expect({ companies: unwatched('companies'), people: unwatched('people') }).toEqual({ companies: [], people: [] });
});

/** The plans name companies `c` and people `p` (the lead's person), `x` (targeting) or `ep` (a watched person). */
const ALIASES: Record<string, Table> = { c: 'companies', p: 'people', x: 'people', ep: 'people' };

/** The company and person columns the SQL names, ids aside. */
function columnsNamed(sql: string[]): Record<Table, string[]> {
  const named: Record<Table, Set<string>> = { companies: new Set(), people: new Set() };
  for (const [, alias, column] of sql.join('\n').matchAll(/\b(c|p|x|ep)\.(\w+)/g)) {
    if (column !== 'id') named[ALIASES[alias!]!].add(column!);
  }
  return { companies: [...named.companies].sort(), people: [...named.people].sort() };
}

const planSql = (plan: EvaluationPlan) => [
  plan.joins,
  plan.kind,
  plan.watched,
  ...plan.filters.map((filter) => filter.sql),
  plan.isLead,
  plan.subjectAllowed,
  plan.subject,
  plan.namedPeople?.('x') ?? '',
  plan.matchedKeywords ?? '',
];

const undeclared = (named: Record<Table, string[]>, reads: ReadColumns) => ({
  companies: named.companies.filter((column) => !reads.companies.includes(column)),
  people: named.people.filter((column) => !reads.people.includes(column)),
});

const signalOf = (signalTypeId: string, config: Record<string, unknown>): Signal =>
  ({
    id: randomUUID(),
    accountId: randomUUID(),
    signalTypeId,
    config,
    duplicateHandling: '7d',
    firstEvaluatedAt: null,
    crmExclusions: { connectionId: randomUUID(), excludeExistingCrmContacts: true, excludeCrmCompanies: true },
  }) as unknown as Signal;

test.each(SIGNAL_TYPES.map((type) => [type.signalTypeId, type] as const))(
  '%s: its plans name no company or person column it does not declare (generated configs)',
  (_id, type) => {
    const named = { companies: new Set<string>(), people: new Set<string>() };
    const configs = fc.sample(configOf(type.signalTypeId, false), { numRuns: 100, seed: 37 });
    for (const config of [{}, ...configs]) {
      const signal = signalOf(type.signalTypeId, type.storedConfig?.(config) ?? config);
      const found = columnsNamed(planSql(type.evaluationPlan(signal, new Date('2026-11-28T12:00:00Z'))));
      for (const table of ['companies', 'people'] as const) for (const column of found[table]) named[table].add(column);
    }
    const all = { companies: [...named.companies], people: [...named.people] };
    expect(undeclared(all, type.reads)).toEqual({ companies: [], people: [] });
  },
);

test('the suppression and CRM rules name no company or person column they do not declare', () => {
  const signal = signalOf('job_changes', {});
  const args: unknown[] = [signal.id];
  const suppression = suppressionFilter(signal.accountId, args);
  const crm = crmExclusionFilter(signal.crmExclusions, args)!;
  expect(undeclared(columnsNamed([suppression.sql]), SUPPRESSION_RULE_READS)).toEqual({ companies: [], people: [] });
  expect(undeclared(columnsNamed([crm.sql]), CRM_EXCLUSION_RULE_READS)).toEqual({ companies: [], people: [] });
});
