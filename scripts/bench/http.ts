/** The bench as a client of the service: plain HTTP calls, as a customer or operator makes them. */

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
}

export async function call<T = any>(
  url: string,
  init: { method?: string; token?: string; body?: unknown; rawBody?: string; contentType?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  if (body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json';
  const response = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed as T, text };
}

/** The answer's body when its status is the expected one; otherwise an error that quotes it. */
export async function expectStatus<T = any>(what: string, status: number, answer: Promise<Answer<T>>): Promise<T> {
  const got = await answer;
  if (got.status !== status)
    throw new Error(`${what}: expected ${status}, got ${got.status}: ${got.text.slice(0, 500)}`);
  return got.body;
}

export interface BenchAccount {
  accountId: string;
  keyId: string;
  apiKey: string;
  webhookSecret: string;
}

/** An account with credits and a key, made through the operator API. */
export async function createAccount(
  apiUrl: string,
  adminToken: string,
  name: string,
  credits: number,
): Promise<BenchAccount> {
  const account = await expectStatus(
    'create account',
    201,
    call(`${apiUrl}/admin/v1/accounts`, { token: adminToken, body: { name, credits } }),
  );
  const key = await expectStatus(
    'create API key',
    201,
    call(`${apiUrl}/admin/v1/accounts/${account.id}/api-keys`, { token: adminToken, body: { name: 'bench' } }),
  );
  return { accountId: account.id, keyId: key.id, apiKey: key.apiKey, webhookSecret: key.webhookSecret };
}

/** Runs `work` over `items` with at most `limit` at once. */
export async function eachWithin<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
