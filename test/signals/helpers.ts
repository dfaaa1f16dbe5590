import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, type Answer, type TestAccount } from '../setup/http';

/** A client of the public API bound to one key, as an integrator would write it. */
export function client(stack: Stack, apiKey: string) {
  const at = (path: string) => `${stack.url}/api/v1${path}`;
  return {
    get: (path: string) => call(at(path), { token: apiKey }),
    post: (path: string, body?: unknown) => call(at(path), { method: 'POST', token: apiKey, body }),
    patch: (path: string, body: unknown) => call(at(path), { method: 'PATCH', token: apiKey, body }),
    delete: (path: string, body?: unknown) => call(at(path), { method: 'DELETE', token: apiKey, body }),
  };
}
export type Client = ReturnType<typeof client>;

/** A second key of the same account, made through the operator API. */
export async function addKey(stack: Stack, account: TestAccount, permissions?: string[]): Promise<string> {
  const key = await call(`${stack.url}/admin/v1/accounts/${account.accountId}/api-keys`, {
    token: TEST_ADMIN_TOKEN,
    body: permissions ? { permissions } : {},
  });
  if (key.status !== 201) throw new Error(`key not created: ${key.text}`);
  return key.body.apiKey;
}

export async function recordCrmConnection(stack: Stack, account: TestAccount, provider: string): Promise<Answer> {
  return call(`${stack.url}/admin/v1/accounts/${account.accountId}/crm-connections`, {
    token: TEST_ADMIN_TOKEN,
    body: { provider, accessToken: `token-${provider}` },
  });
}

/** Checks status and code together, so a failure shows the whole error body. */
export function expectError(answer: Answer, status: number, code: string): Record<string, any> {
  expect({ status: answer.status, code: answer.body?.error?.code, body: answer.body }).toEqual({
    status,
    code,
    body: expect.objectContaining({ error: expect.objectContaining({ code, message: expect.any(String) }) }),
  });
  return answer.body.error;
}

export function expectStatus(answer: Answer, status: number): any {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: answer.body });
  return answer.body;
}

/** The resource's own promise: every `applied` entry has a warning naming the same field. */
export function expectAppliedExplained(signal: {
  applied: Record<string, unknown>;
  warnings: { field: string }[];
}): void {
  const warned = new Set(signal.warnings.map((w) => w.field));
  for (const field of Object.keys(signal.applied))
    expect({ field, warned: warned.has(field) }).toEqual({ field, warned: true });
}

export interface Warning {
  code: string;
  field: string;
  message: string;
  severity: string;
  values: string[];
}

export const warningsOf = (signal: { warnings: Warning[] }, code: string) =>
  signal.warnings.filter((w) => w.code === code);

export const jobChangesBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'New CTOs',
  config: { jobTitles: ['Chief Technology Officer'] },
  ...overrides,
});

export const watchlistBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Target accounts',
  config: { companies: ['acme.com'] },
  ...overrides,
});

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * These files fire hundreds of quick calls from one key; the rate limit has its own tests.
 * `env` adds settings, such as vendor base URLs pointing at local vendor servers.
 */
export const startSignalsStack = (env: Record<string, string> = {}) =>
  startStack({ worker: false, env: { RATE_LIMIT_PER_SECOND: '100000', ...env } });
