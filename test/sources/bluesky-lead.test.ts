import { startStack, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import { allLeads, client, company, createSignal, evaluateNow, ingest, settled } from '../leads/fixtures';
import { startReceiver } from '../deliveries/receiver';
import { runSourceNow } from './source-runs';
import { actor, postUri, startAppView, type AppView } from './bluesky-fixtures';

const DAY_MS = 86_400_000;
const FILE_STARTED = Date.now();
const ago = (days: number) => new Date(FILE_STARTED - days * DAY_MS).toISOString();

let stack: Stack;
let view: AppView;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  view = await startAppView();
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_HOST_MAP: `public.api.bsky.app=${view.origin}`,
      SOURCES_HOST_INTERVAL_MS: '20',
      BLUESKY_INTERVAL: '24h',
      // The test says when the watchlist evaluates: after a like is taken back, not on its arrival.
      SIGNAL_WAKE_ON_ARRIVAL: 'false',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  await view?.close();
});

test('a like on a competitor’s post and a repost of a watched company’s post reach the webhook as leads; a like deleted before the evaluation makes none', async () => {
  await ingest(stack, [company('heron', { name: 'Heron Robotics' })]);
  const account = await createAccount(stack, { credits: 100 });
  receiver = await startReceiver({ secret: account.webhookSecret });
  const api = client(stack, account);
  const signal = await createSignal(api, 'account-watchlist', {
    name: 'Heron and its rival',
    status: 'active',
    webhookUrl: receiver.url,
    config: { companies: ['heron.com'] },
  });
  await settled(stack, signal.id);
  const made = await call(`${stack.url}/api/v1/competitors`, {
    method: 'POST',
    token: account.apiKey,
    body: { name: 'Kestrel Automation', domain: 'kestrel.io' },
  });
  expect(made.status).toBe(201);

  // Both handles are the companies' domains, verified by Bluesky; no handle was set.
  const heron = actor(view, 'heron.com', { displayName: 'Heron Robotics' });
  view.domainHandles.set('heron.com', heron.did);
  const kestrel = actor(view, 'kestrel.io', { displayName: 'Kestrel' });
  view.domainHandles.set('kestrel.io', kestrel.did);
  view.feeds.set('heron.com', [{ rkey: '3lbheron1', createdAt: ago(1) }]);
  view.feeds.set('kestrel.io', [{ rkey: '3lbkestrel1', createdAt: ago(2) }]);
  const maya = actor(view, 'maya.bsky.social', { displayName: 'Maya Ortiz', description: 'Ops at a logistics firm' });
  const leo = actor(view, 'leo.bsky.social', { displayName: 'Leo Brandt' });
  const ivy = actor(view, 'ivy.bsky.social', { displayName: 'Ivy Chen' });
  view.likes.set(postUri(kestrel, '3lbkestrel1'), [
    { actor: maya, createdAt: ago(1.5) },
    { actor: ivy, createdAt: ago(1.4) },
  ]);
  view.reposts.set(postUri(heron, '3lbheron1'), [leo]);
  view.followers.set('kestrel.io', []);

  await runSourceNow(stack, 'bluesky');
  // Ivy takes her like back before the watchlist's next evaluation.
  view.likes.set(postUri(kestrel, '3lbkestrel1'), [{ actor: maya, createdAt: ago(1.5) }]);
  await runSourceNow(stack, 'bluesky');
  await evaluateNow(stack, signal.id);

  const requests = await receiver.waitFor(2, 60_000);
  const delivered = requests.map((r) => r.body);
  expect(requests.every((r) => r.verified)).toBe(true);
  const byEvent = Object.fromEntries(delivered.map((lead) => [lead.signal.last_signal, lead]));
  expect(Object.keys(byEvent).sort()).toEqual(['Company Post Reactions', 'Competitor Social Reactions']);
  expect(byEvent['Competitor Social Reactions'].signal).toMatchObject({
    id: signal.id,
    type: 'account_watchlist',
    post_url: 'https://bsky.app/profile/kestrel.io/post/3lbkestrel1',
    post_date: ago(2).slice(0, 10),
    engagement_type: 'like',
    last_signal_date: ago(1.5).slice(0, 10),
  });
  expect(byEvent['Competitor Social Reactions'].contact).toMatchObject({ first_name: 'Maya', last_name: 'Ortiz' });
  expect(byEvent['Company Post Reactions'].signal).toMatchObject({
    post_url: 'https://bsky.app/profile/heron.com/post/3lbheron1',
    engagement_type: 'repost',
  });
  expect(byEvent['Company Post Reactions'].contact).toMatchObject({ first_name: 'Leo', last_name: 'Brandt' });

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(2);
  expect(JSON.stringify(leads)).not.toContain('Ivy');
  expect(await stack.db.query(`SELECT id FROM people WHERE id = $1`, [`bluesky-person:${ivy.did}`])).toEqual([]);
});
