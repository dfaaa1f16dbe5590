import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Signal } from '../../src/db/entities/signal';
import { EVENT_TYPES } from '../../src/providers/data/records';
import type { EvaluationPlan } from '../../src/signal-types/kit/evaluation-rules';
import {
  COMPANY_KEY,
  PERSON_KIND,
  arrivedRowKeys,
  kindKey,
  type WakeKey,
} from '../../src/signal-types/kit/wake-keys';
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
      if (keys.filter((key) => key.startsWith('kind:')).every((key) => read.includes(key))) narrower++;
    }
    expect(narrower).toBe(configs.length + 1);
  },
);
