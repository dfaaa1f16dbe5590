import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { loadConfig } from '../../src/config';
import { closeTemporal, connectTemporal } from '../../src/temporal/client';
import { searchAttributeKeys } from '../../src/temporal/contract/search-attributes';
import { registerSearchAttributes } from '../../src/temporal/search-attribute-registration';
import { temporalTargetFrom } from '../../src/temporal/target';

const address = () => process.env.TEST_TEMPORAL_ADDRESS!;
const attributeNames = searchAttributeKeys.map((key) => key.name).sort();

describe('Temporal connection settings, as @temporalio/envconfig reads them', () => {
  test('without settings: the local dev server and the default namespace, no TLS', () => {
    const target = temporalTargetFrom({});
    expect(target).toMatchObject({ address: '127.0.0.1:7233', namespace: 'default' });
    expect(target.connection.tls).toBeUndefined();
    expect(target.connection.apiKey).toBeUndefined();
  });

  test('Temporal Cloud by environment: address, namespace and an API key, which turns TLS on', () => {
    const target = temporalTargetFrom({
      TEMPORAL_ADDRESS: 'leads.a1b2c.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'leads.a1b2c',
      TEMPORAL_API_KEY: 'cloud-key',
    });
    expect(target).toMatchObject({ address: 'leads.a1b2c.tmprl.cloud:7233', namespace: 'leads.a1b2c' });
    expect(target.connection).toMatchObject({ apiKey: 'cloud-key', tls: true });
  });

  test('a profile of the TOML file, with mTLS certificates; the environment still overrides it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'envconfig-'));
    writeFileSync(path.join(dir, 'client.pem'), 'CERT');
    writeFileSync(path.join(dir, 'client.key'), 'KEY');
    const file = path.join(dir, 'temporal.toml');
    writeFileSync(
      file,
      [
        '[profile.prod]',
        'address = "prod.example:7233"',
        'namespace = "leads-prod"',
        '[profile.prod.tls]',
        `client_cert_path = "${path.join(dir, 'client.pem')}"`,
        `client_key_path = "${path.join(dir, 'client.key')}"`,
      ].join('\n'),
    );
    const env = { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' };
    const target = temporalTargetFrom(env);
    expect(target).toMatchObject({ address: 'prod.example:7233', namespace: 'leads-prod' });
    const tls = target.connection.tls as { clientCertPair?: { crt: Uint8Array; key: Uint8Array } };
    expect(Buffer.from(tls.clientCertPair!.crt).toString()).toBe('CERT');
    expect(Buffer.from(tls.clientCertPair!.key).toString()).toBe('KEY');
    expect(temporalTargetFrom({ ...env, TEMPORAL_NAMESPACE: 'other' }).namespace).toBe('other');
  });

  test("the service's configuration carries the same target; a bad profile refuses to load, naming it", () => {
    const base = {
      DATABASE_URL: 'postgres://x/y',
      ADMIN_TOKEN: 'a'.repeat(16),
      SECRETS_KEY: randomBytes(32).toString('base64'),
    };
    const config = loadConfig({ ...base, TEMPORAL_ADDRESS: '10.0.0.5:7233', TEMPORAL_NAMESPACE: 'leads' });
    expect(config.TEMPORAL).toMatchObject({ address: '10.0.0.5:7233', namespace: 'leads' });
    expect([config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE]).toEqual(['10.0.0.5:7233', 'leads']);
    expect(() =>
      loadConfig({ ...base, TEMPORAL_CONFIG_FILE: '/nonexistent/temporal.toml', TEMPORAL_PROFILE: 'prod' }),
    ).toThrow(/invalid configuration: Temporal connection settings/);
  });
});

describe('registering the search attributes on a server', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await Connection.connect({ address: address() });
  });
  afterAll(() => connection.close());

  const listed = async (namespace: string) =>
    Object.keys((await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {}).sort();

  test('a new namespace gets every attribute; a second start adds nothing', async () => {
    const namespace = `registration-${randomBytes(4).toString('hex')}`;
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    const first = await registerSearchAttributes(connection, namespace, { timeoutMs: 30_000 });
    expect(first.added.sort()).toEqual(attributeNames);
    expect(await listed(namespace)).toEqual(expect.arrayContaining(attributeNames));
    expect(await registerSearchAttributes(connection, namespace)).toEqual({ added: [] });
  });

  test('a namespace that does not exist: refused after the retries, with what to do', async () => {
    await expect(
      registerSearchAttributes(connection, `missing-${randomBytes(4).toString('hex')}`, { timeoutMs: 1500 }),
    ).rejects.toThrow(
      /cannot register the search attributes SignalId, .* in Temporal namespace missing-.*Register them/,
    );
  });

  test('an attribute registered with another type is refused at once, naming it', async () => {
    const namespace = `clash-${randomBytes(4).toString('hex')}`;
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: { SignalId: 3 } }); // INT
    await expect(registerSearchAttributes(connection, namespace, { timeoutMs: 30_000 })).rejects.toThrow(
      /search attribute SignalId exists in namespace clash-\w+ with another type; this service needs Keyword/,
    );
  });
});

describe('closing the connection while a call waits to retry', () => {
  test('closing waits out the scheduled retry: the call ends with an error of its own, nothing fires after', async () => {
    // A TCP relay to the test server that can go away, as Temporal does in an outage.
    const [host, port] = address().split(':');
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((socket) => {
      const upstream = net.connect(Number(port), host);
      sockets.add(socket).add(upstream);
      socket.pipe(upstream).pipe(socket);
      const end = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    relay.listen(0, '127.0.0.1');
    await once(relay, 'listening');
    const relayAddress = `127.0.0.1:${(relay.address() as net.AddressInfo).port}`;
    const client = await connectTemporal(temporalTargetFrom({ TEMPORAL_ADDRESS: relayAddress }));
    await client.workflowService.getSystemInfo({});

    relay.close();
    for (const socket of sockets) socket.destroy();
    let settled: 'resolved' | Error | undefined;
    const call = client.workflowService.getSystemInfo({}).then(
      () => (settled = 'resolved'),
      (err: Error) => (settled = err),
    );
    await sleep(150); // the first attempt failed; a retry is scheduled
    await closeTemporal(client);
    await call;
    expect(settled).toBeInstanceOf(Error);
    expect((settled as Error).message).not.toMatch(/shut down/);
  }, 30_000);
});
