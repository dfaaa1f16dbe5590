import { defineSource } from '../../src/sources/kit/source-module';
import { registerSource } from '../../src/sources/registry';
import { duration } from '../../src/settings-fields';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call } from '../setup/http';
import { runSourceNow } from './source-runs';

/**
 * Issue 37, item 6 (sources): a source is its folder and one registry line. This throwaway
 * source is one module registered here, before the configuration is read and the services are
 * made; no production file names it, yet its setting is read, the operator lists it, it gets its
 * schedule, and a run visits its items.
 */
const synced: string[] = [];
const throwaway = defineSource({
  name: 'throwaway-test',
  settings: () => ({ THROWAWAY_TEST_INTERVAL: duration('3h') }),
  intervalMs: (settings) => settings.THROWAWAY_TEST_INTERVAL,
  create: () => ({
    source: {
      name: 'throwaway-test',
      items: async (after) => (after === null ? { items: ['first', 'second'], next: null } : { items: [], next: null }),
      sync: async (item) => {
        synced.push(item);
        return { records: 0 };
      },
    },
    parts: {},
  }),
});
registerSource(throwaway);

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ env: { THROWAWAY_TEST_INTERVAL: '2h' } });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await stack?.stop();
});

test('a source registered by one module is listed, scheduled by its own setting, and run', async () => {
  const listed = await call(`${stack.url}/admin/v1/sources`, { token: TEST_ADMIN_TOKEN });
  expect(listed.status).toBe(200);
  expect(listed.body.data.map((source: { name: string }) => source.name)).toEqual(
    expect.arrayContaining(['job-boards', 'news', 'throwaway-test']),
  );
  expect(listed.body.data.find((source: { name: string }) => source.name === 'throwaway-test')).toMatchObject({
    name: 'throwaway-test',
    enabled: true,
    running: false,
    lastRunStartedAt: null,
  });

  const schedule = await stack.temporal.schedule
    .getHandle(stack.services.sources.schedules.idOf('throwaway-test'))
    .describe();
  expect(schedule.spec.intervals).toEqual([expect.objectContaining({ every: 2 * 3_600_000 })]);
  expect(schedule.action).toMatchObject({ args: ['throwaway-test'] });

  const status = await runSourceNow(stack, 'throwaway-test');
  expect(status).toMatchObject({ name: 'throwaway-test', running: false, lastError: null });
  expect(synced).toEqual(['first', 'second']);
});

test('a registered source name is taken once', () => {
  expect(() => registerSource(throwaway)).toThrow('source throwaway-test is registered already');
});
