import { startStack, type Stack } from '../setup/stack';
import { call } from '../setup/http';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(() => stack.stop());

describe('OpenAPI document', () => {
  test('declares OpenAPI 3.1.0 with an opaque revision id, without authentication', async () => {
    const answer = await call(`${stack.url}/api/v1/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    expect(answer.body.info.version).toMatch(/^[0-9a-f]{12}$/);
    expect(
      answer.body.paths['/api/v1/credits/usage'].get.parameters.map((p: { name: string }) => p.name).sort(),
    ).toEqual(['from', 'limit', 'offset', 'signalId', 'to']);
    expect(answer.body.components.securitySchemes.apiKey.scheme).toBe('bearer');
  });
});

describe('health and readiness', () => {
  test('healthz answers while the process is up', async () => {
    expect((await call(`${stack.url}/healthz`)).body).toEqual({ status: 'ok' });
  });

  test('readyz is 503 naming the worker until one polls, then 200', async () => {
    const before = await call(`${stack.url}/readyz`);
    expect(before.status).toBe(503);
    expect(before.body.error).toMatchObject({ code: 'NOT_READY', postgres: true, temporal: true, worker: false });

    await stack.startWorker();
    let after = await call(`${stack.url}/readyz`);
    for (let i = 0; i < 50 && after.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      after = await call(`${stack.url}/readyz`);
    }
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ postgres: true, temporal: true, worker: true });
  });
});
