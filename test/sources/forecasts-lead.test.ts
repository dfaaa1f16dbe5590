import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { client, createSignal, daysAgo, evaluateNow, ingest, settled, waitFor } from '../leads/fixtures';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import { WATCHLIST_EVENT_KEYS } from '../../src/catalogue/watchlist-events';
import { History } from './forecast-histories';
import { runSourceNow, waitForRunAfter } from './source-runs';

let stack: Stack;
let receiver: Receiver;

const day = (iso: string) => iso.slice(0, 10);
const history = new History('lead');
// Its last round 15 months ago and hiring growing: likely to raise.
const raising = history.company('raising');
history.round(raising, day(daysAgo(456)), { funding_type: 'Seed', funding_amount_usd: 3_000_000 });
history.posting(raising, day(daysAgo(120)));
[80, 60, 40, 20].forEach((n) => history.posting(raising, day(daysAgo(n))));
// Watched too, with nothing to forecast.
const quiet = history.company('quiet');
history.posting(quiet, day(daysAgo(30)));

beforeAll(async () => {
  stack = await startStack({ env: { SIGNAL_EVALUATION_INTERVAL: '1h', FORECASTS_INTERVAL: '15s' } });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
  await ingest(stack, history.records);
});

afterAll(async () => {
  // Its schedule runs every 15 s: paused, and a run under way let finish, before the stack stops.
  if (stack) {
    await stack.services.sources.setEnabled('forecasts', false);
    await waitFor(
      'the last forecasts run to end',
      () => stack.services.sources.get('forecasts'),
      (status) => !status.running,
    );
  }
  await receiver?.close();
  await stack?.stop();
});

test('the forecasts source is listed with the operator sources, runs on its schedule and says what it did', async () => {
  const listed = await call(`${stack.url}/admin/v1/sources`, { token: TEST_ADMIN_TOKEN });
  const forecasts = listed.body.items.find((source: { name: string }) => source.name === 'forecasts');
  expect(forecasts).toMatchObject({ name: 'forecasts', enabled: true, off: null, errors: 0 });
  expect(Date.parse(forecasts.nextRunAt)).toBeLessThanOrEqual(Date.now() + 15_000);
  const description = await stack.temporal.schedule
    .getHandle(stack.services.sources.schedules.idOf('forecasts'))
    .describe();
  expect(description.spec.intervals?.[0]?.every).toBe(15_000);

  // Nobody asks for it: the schedule's own run.
  const status = await waitForRunAfter(stack, 'forecasts', forecasts.lastRunFinishedAt);
  expect(status).toMatchObject({ errors: 0, lastError: null, recordsIngested: 1 });
  expect(status.detail).toMatch(
    /^4 rules \(likely-to-raise v1, path-to-ipo v1, acquisition-target v1, expected-to-scale v1\); 1 forecasts stored; the last runs looked at \d+ companies and made [01]$/,
  );
  expect(await stack.db.query(`SELECT company_id, rule FROM forecasts`)).toEqual([
    { company_id: raising, rule: 'likely-to-raise' },
  ]);
});

test('a watchlist wanting forecasted_funding receives the forecast as a lead by webhook, with its reason', async () => {
  const account = await createAccount(stack, { credits: 100 });
  receiver = await startReceiver({ secret: account.webhookSecret });
  const api = client(stack, account);
  const sources = Object.fromEntries(
    WATCHLIST_EVENT_KEYS.map((key) => [key, { enabled: key === 'forecasted_funding' }]),
  );
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'Who will raise',
    status: 'active',
    webhookUrl: receiver.url,
    config: { companies: ['lead-raising.com', 'lead-quiet.com'], sources },
  });
  await settled(stack, signal.id);

  // A new posting at the quiet company: a run looks at it again and forecasts nothing more.
  history.posting(quiet, day(daysAgo(2)));
  await ingest(stack, history.records.slice(-1));
  const status = await runSourceNow(stack, 'forecasts');
  expect(status).toMatchObject({ errors: 0, recordsIngested: 1 });
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM forecast_pending`)).toEqual([{ n: 0 }]);
  await evaluateNow(stack, signal.id);

  const delivered = await waitFor(
    'the forecast lead at the webhook',
    async () => receiver.requests,
    (requests) => requests.length > 0,
  );
  expect(delivered).toHaveLength(1);
  const [request] = delivered;
  expect(request!.verified).toBe(true);
  expect(request!.body.company).toMatchObject({ name: 'lead-raising Labs' });
  expect(request!.body.signal).toMatchObject({
    id: signal.id,
    type: 'account_watchlist',
    last_signal: 'Watched Company Likely to Raise',
    funding_type: 'Series A',
    news_summary: expect.stringMatching(
      /^Likely to raise within 365 days: last round \(Seed\) on .*; 4 postings in the last 90 days against 1 before\. \(rule likely-to-raise v1, confidence 0\.65\)$/,
    ),
  });
});
