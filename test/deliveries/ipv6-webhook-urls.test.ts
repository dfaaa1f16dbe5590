import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack, type Stack, STACK_START_MS } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';

/**
 * One rule for a webhook URL wherever it is given (signal create, PATCH, test-webhook): IPv6
 * literals are URLs like any other; private ones are refused only where private targets are.
 */
let open: { stack: Stack; account: TestAccount };
let guarded: { stack: Stack; account: TestAccount };
let receiver: http.Server;
const received: string[] = [];

beforeAll(async () => {
  const start = async (env: Record<string, string>) => {
    const stack = await startStack({ worker: false, env: { WEBHOOK_TIMEOUT_MS: '1000', ...env } });
    return { stack, account: await createAccount(stack, { credits: 10 }) };
  };
  [open, guarded] = await Promise.all([start({}), start({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' })]);
  receiver = http.createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume().on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '::1', resolve));
}, STACK_START_MS);
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await Promise.all([open?.stack.stop(), guarded?.stack.stop()]);
});

const create = (t: typeof open, webhookUrl: string) =>
  call(`${t.stack.url}/api/v1/signals/job-changes`, {
    token: t.account.apiKey,
    body: { name: 'IPv6 hook', webhookUrl, config: { jobTitles: ['Chief Technology Officer'] } },
  });
const patch = (t: typeof open, signalId: string, webhookUrl: string) =>
  call(`${t.stack.url}/api/v1/signals/${signalId}`, { token: t.account.apiKey, method: 'PATCH', body: { webhookUrl } });
const testSend = (t: typeof open, signalId: string, url?: string) =>
  call(`${t.stack.url}/api/v1/signals/${signalId}/test-webhook`, {
    token: t.account.apiKey,
    method: 'POST',
    ...(url ? { body: { url } } : {}),
  });

const PUBLIC_V6 = 'http://[2606:4700:4700::1111]:8080/hooks/leads';

test('private targets allowed: an IPv6 loopback webhook is saved, patched and receives the test send', async () => {
  const url = `http://[::1]:${(receiver.address() as AddressInfo).port}/hooks/leads`;
  const created = await create(open, url);
  expect(created.status).toBe(201);
  expect(created.body.webhookUrl).toBe(url);
  const patched = await patch(open, created.body.id, `${url}?v=2`);
  expect(patched.status).toBe(200);
  expect(patched.body.webhookUrl).toBe(`${url}?v=2`);
  const sent = await testSend(open, created.body.id);
  expect(sent.body).toMatchObject({ success: true, statusCode: 200 });
  expect(received).toEqual(['POST /hooks/leads?v=2']);
});

test('private targets refused: a public IPv6 literal is accepted by create, PATCH and test-webhook alike', async () => {
  const created = await create(guarded, PUBLIC_V6);
  expect(created.status).toBe(201);
  expect(created.body.webhookUrl).toBe(PUBLIC_V6);
  expect((await patch(guarded, created.body.id, `${PUBLIC_V6}?v=2`)).status).toBe(200);
  // Accepted: it is sent (no route to the internet here, so no answer), not refused as a bad URL.
  const sent = await testSend(guarded, created.body.id, PUBLIC_V6);
  expect(sent.status).toBe(200);
  expect(sent.body).toMatchObject({ success: false, statusCode: null });
});

test('private targets refused: private IPv6 literals are refused the same way on every path', async () => {
  const { body: signal } = await create(guarded, PUBLIC_V6);
  for (const url of [
    'http://[::1]:8080/h',
    'http://[fd00::5]/h',
    'http://[fe80::1]/h',
    'http://[::ffff:127.0.0.1]/h',
    // IPv4-compatible (deprecated): judged by the IPv4 address it carries, loopback and metadata here.
    'http://[::7f00:1]/h',
    'http://[::127.0.0.1]:8080/h',
    'http://[::a9fe:a9fe]/h',
    'http://[::ffff:a00:1]/h',
  ]) {
    const problems = [
      await create(guarded, url),
      await patch(guarded, signal.id, url),
      await testSend(guarded, signal.id, url),
    ].map((answer) => ({ status: answer.status, code: answer.body.error?.code, message: answer.body.error?.details }));
    for (const problem of problems) {
      expect({ url, ...problem }).toMatchObject({
        url,
        status: 422,
        code: 'VALIDATION_ERROR',
        message: [{ message: expect.stringMatching(/non-public address.*private targets are refused/) }],
      });
    }
  }
  const after = await call(`${guarded.stack.url}/api/v1/signals/${signal.id}`, { token: guarded.account.apiKey });
  expect(after.body.webhookUrl).toBe(PUBLIC_V6);
});

test('a malformed URL gets the same message from create, PATCH and test-webhook', async () => {
  const { body: signal } = await create(open, 'http://127.0.0.1:9/h');
  for (const url of ['not a url', 'ftp://example.com/h', 'http://user:pw@example.com/h', 'http://[::1/h']) {
    const answers = [await create(open, url), await patch(open, signal.id, url), await testSend(open, signal.id, url)];
    const messages = answers.map((answer) => {
      expect(answer.status).toBe(422);
      return (answer.body.error.details as Array<{ message: string }>).map((d) => d.message);
    });
    expect({ url, messages }).toEqual({ url, messages: [messages[0], messages[0], messages[0]] });
  }
});
