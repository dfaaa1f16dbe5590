import type { Stack } from './stack';
import { TEST_ADMIN_TOKEN } from './stack';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A plain HTTP call, as a client of the service makes it. */
export async function call<T = any>(
  url: string,
  init: { method?: string; token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.rawBody !== undefined) body = init.rawBody;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export interface TestAccount {
  accountId: string;
  keyId: string;
  apiKey: string;
  webhookSecret: string;
}

/** An account with credits and a key, made through the operator API as an operator would. */
export async function createAccount(
  stack: Stack,
  options: { credits?: number; permissions?: string[]; name?: string } = {},
): Promise<TestAccount> {
  const account = await call(`${stack.url}/admin/v1/accounts`, {
    token: TEST_ADMIN_TOKEN,
    body: {
      name: options.name ?? 'Test account',
      ...(options.credits !== undefined ? { credits: options.credits } : {}),
    },
  });
  if (account.status !== 201) throw new Error(`account not created: ${account.text}`);
  const key = await call(`${stack.url}/admin/v1/accounts/${account.body.id}/api-keys`, {
    token: TEST_ADMIN_TOKEN,
    body: options.permissions ? { permissions: options.permissions } : {},
  });
  if (key.status !== 201) throw new Error(`key not created: ${key.text}`);
  return {
    accountId: account.body.id,
    keyId: key.body.id,
    apiKey: key.body.apiKey,
    webhookSecret: key.body.webhookSecret,
  };
}
