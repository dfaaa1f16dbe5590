import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Signal } from '../../src/db/entities/signal';
import { EVENT_TYPES } from '../../src/providers/data/records';
import type { EvaluationPlan } from '../../src/signal-types/kit/evaluation-rules';
import { COMPANY_KEY, PERSON_KIND, arrivedRowKeys, kindKey, type WakeKey } from '../../src/signal-types/kit/wake-keys';
import { SIGNAL_TYPES } from '../../src/signal-types/registry';
import { wakeKeysOf } from '../../src/services/signals/signals';
import { configOf } from './scenario';

/**
 * Wake on arrival may over-select, never under-select (docs/decisions/wake-on-arrival.md): for
 * every registered type and many generated configs, the keys a signal stores cover the keys of
 * every row its evaluation plan reads. What a plan reads is taken from its SQL: the event types
 * its `e.type` conditions let through, the company columns it names (a changed company), and
 * the person columns it names (a changed, new or deleted person).
 */

const NOW = new Date('2026-11-28T12:00:00Z');

const signalOf = (signalTypeId: string, config: Record<string, unknown>): Signal =>
  ({
    id: randomUUID(),
    accountId: randomUUID(),
    signalTypeId,
    config,
    duplicateHandling: '7d',
    firstEvaluatedAt: null,
    crmExclusions: null,
  }) as unknown as Signal;

/** Whether one `e.type` condition of the plan lets events of `type` through; undefined when the SQL says nothing of `e.type`. */
function typeCondition(sql: string, args: unknown[], type: string): boolean | undefined {
  const trimmed = sql.trim();
  let match = /^e\.type = '([^']+)'$/.exec(trimmed);
  if (match) return match[1] === type;
  match = /^e\.type = \$(\d+)$/.exec(trimmed);
  if (match) return args[Number(match[1]) - 1] === type;
  match = /^e\.type = ANY\(\$(\d+)::text\[\]\)$/.exec(trimmed);
  if (match) return (args[Number(match[1]) - 1] as string[]).includes(type);
  if (/\be\.type\b/.test(trimmed) && /^e\.type\b/.test(trimmed))
    throw new Error(`an e.type condition this test cannot read: ${trimmed}`);
  return undefined;
}

/** The keys of the rows a plan reads: kinds its conditions let through, and company and person changes when it names their columns. */
function keysRead(plan: EvaluationPlan): WakeKey[] {
  const conditions = [plan.kind, ...plan.filters.map((filter) => filter.sql)];
  const kinds = EVENT_TYPES.filter((type) => conditions.every((sql) => typeCondition(sql, plan.args, type) !== false));
  const sql = [
    plan.joins,
    plan.kind,
    plan.watched,
    ...plan.filters.map((filter) => filter.sql),
    plan.subjectAllowed,
    plan.subject,
    plan.namedPeople?.('x') ?? '',
    plan.matchedKeywords ?? '',
  ].join('\n');
  const named = (aliases: string) =>
    [...sql.matchAll(new RegExp(`\\b(${aliases})\\.(\\w+)`, 'g'))].some(([, , column]) => column !== 'id');
  return [
    ...kinds.map((kind) => arrivedRowKeys({ table: 'events', type: kind })).flat(),
    ...(named('c') ? arrivedRowKeys({ table: 'companies', inserted: false }) : []),
    ...(named('p|x|ep') ? arrivedRowKeys({ table: 'people' }) : []),
  ];
}

test('a coarse row announces its kind, a changed company or a person; a new company announces nothing', () => {
  expect(arrivedRowKeys({ table: 'events', type: 'fundraising' })).toEqual([kindKey('fundraising')]);
  expect(arrivedRowKeys({ table: 'companies', inserted: false })).toEqual([COMPANY_KEY]);
  expect(arrivedRowKeys({ table: 'companies', inserted: true })).toEqual([]);
  expect(arrivedRowKeys({ table: 'people' })).toEqual([kindKey(PERSON_KIND)]);
});

test.each(SIGNAL_TYPES.map((type) => [type.signalTypeId, type] as const))(
  '%s: the wake keys of its configs cover every row its plan reads (generated configs)',
  (_id, type) => {
    expect(type.wakeKeys).toBeDefined();
    const configs = fc.sample(configOf(type.signalTypeId, false), { numRuns: 150, seed: 36 });
    let narrower = 0;
    for (const config of [{}, ...configs]) {
      const stored = type.storedConfig?.(config) ?? config;
      const keys = wakeKeysOf(type, stored);
      const read = keysRead(type.evaluationPlan(signalOf(type.signalTypeId, stored), NOW));
      expect(read.length).toBeGreaterThan(0);
      if (keys === null) continue;
      expect({ config: stored, missing: read.filter((key) => !keys.includes(key)) }).toEqual({
        config: stored,
        missing: [],
      });
      // Kept narrow too: the keys name no event kind the plan does not read.
      const kinds = keys.filter((key) => key.startsWith('kind:') && key !== kindKey(PERSON_KIND));
      if (kinds.every((key) => read.includes(key))) narrower++;
    }
    expect(narrower).toBe(configs.length + 1);
  },
);

const overlap = (a: readonly WakeKey[], b: readonly WakeKey[]) => a.some((key) => b.includes(key));
const typeOf = (id: string) => SIGNAL_TYPES.find((type) => type.signalTypeId === id)!;

test('an inserted row announces its kind with each value it holds; without its facts, its kind alone', () => {
  const row = { table: 'events', type: 'fundraising', companyId: 'co-1', personId: null } as const;
  expect(arrivedRowKeys(row, { hq: 'DE', industry: 'Software Development', size: '51-200' })).toEqual([
    'fundraising@any',
    'fundraising@hq:DE',
    'fundraising@industry:Software Development',
    'fundraising@size:51-200',
    'fundraising@hq:DE&industry:Software Development',
    'fundraising@hq:DE&size:51-200',
    'fundraising@industry:Software Development&size:51-200',
  ]);
  expect(arrivedRowKeys(row)).toEqual([kindKey('fundraising')]);
  expect(arrivedRowKeys({ table: 'people', personId: 'pe-1', companyId: 'co-1' }, { persona: 'CTO' })).toEqual([
    'person@any',
    'person@persona:CTO',
  ]);
});

test('a signal stores the values of its narrowest filter or pair: a row without them does not wake it', () => {
  const type = typeOf('fundraising');
  // Bavaria lies in Germany: one country of thirty is narrower than one size band of eight.
  expect(wakeKeysOf(type, { locations: ['Germany', 'Bavaria'] })!.filter((key) => key.includes('@'))).toEqual([
    'fundraising@hq:DE',
  ]);
  const keys = wakeKeysOf(type, { locations: ['Germany'], companySizeFilters: ['51-200', '201-500'] })!;
  expect(keys.filter((key) => key.includes('@'))).toEqual([
    'fundraising@hq:DE&size:201-500',
    'fundraising@hq:DE&size:51-200',
  ]);
  const round = (hq: string, size: string | null) =>
    arrivedRowKeys({ table: 'events', type: 'fundraising', companyId: 'co' }, { hq, size });
  expect(overlap(keys, round('DE', '201-500'))).toBe(true);
  expect(overlap(keys, round('DE', '1-10'))).toBe(false);
  expect(overlap(keys, round('FR', '51-200'))).toBe(false);
  expect(overlap(keys, round('DE', null))).toBe(false);
  // A deleted or changed row is coarse, and wakes every signal of its kind.
  expect(overlap(keys, arrivedRowKeys({ table: 'events', type: 'fundraising' }))).toBe(true);
  expect(overlap(keys, arrivedRowKeys({ table: 'events', type: 'job_change' }))).toBe(false);
});

test('job changes key on personas, not on free titles; a new person of its personas wakes it', () => {
  const personas = wakeKeysOf(typeOf('job_changes'), { jobTitles: ['CTO'] })!;
  const change = (persona: string) =>
    arrivedRowKeys(
      { table: 'events', type: 'job_change', companyId: 'co', personId: 'pe' },
      { hq: 'US', persona, personCountry: 'FR' },
    );
  expect(overlap(personas, change('CTO'))).toBe(true);
  expect(overlap(personas, change('CFO'))).toBe(false);
  expect(overlap(personas, arrivedRowKeys({ table: 'people', personId: 'pe' }, { persona: 'CTO' }))).toBe(true);
  const titles = wakeKeysOf(typeOf('job_changes'), { jobTitles: ['CTO'], customTitles: ['Founder'] })!;
  expect(overlap(titles, change('CFO'))).toBe(true);
});

test('a watchlist is found by its entries: its keys name its kinds as watched', () => {
  const keys = wakeKeysOf(typeOf('account_watchlist'), typeOf('account_watchlist').storedConfig!({}))!;
  expect(keys).toEqual(expect.arrayContaining(['fundraising@watched', 'person@watched', 'kind:fundraising']));
  expect(keys.some((key) => key.endsWith('@any'))).toBe(false);
});
