import http from 'node:http';
import { startStack, type Stack } from '../setup/stack';
import { createServices } from '../../src/services';
import { createLogger } from '../../src/logger';
import { startApi, type RunningApi } from '../../api/server';

/**
 * The assistant authorization server in production (issue 31, finding 6): its discovery
 * documents name PUBLIC_URL's endpoints whatever Host a request forges, a web client's
 * redirect URLs are https (loopback http is for native apps), and only the authorization code
 * flow is served (no ID token in a fragment).
 */
const PUBLIC_URL = 'https://leads.example.com';
let stack: Stack;
let production: RunningApi;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  const services = createServices({
    db: stack.db,
    config: { ...stack.config, NODE_ENV: 'production', PUBLIC_URL, ASSISTANT_REGISTRATIONS_PER_HOUR: 1000 },
    logger: createLogger('silent', 'test'),
    temporal: stack.temporal,
  });
  production = await startApi(services, 0, '127.0.0.1');
});
afterAll(async () => {
  production?.server.closeAllConnections();
  await production?.close();
  await stack?.stop();
});

/** A GET with the headers as given, Host included (fetch would not send a forged one). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { port } = new URL(production.url);
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: Number(port), path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

const registration = (metadata: Record<string, unknown>) =>
  fetch(`${production.url}/oauth/reg`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Raw client', token_endpoint_auth_method: 'none', ...metadata }),
  });

test('the discovery documents name PUBLIC_URL endpoints, whatever Host or X-Forwarded-Host a request forges', async () => {
  const { host } = new URL(production.url);
  const forgeries: Record<string, string>[] = [
    { Host: host },
    { Host: 'evil.example' },
    { Host: host, 'X-Forwarded-Host': 'evil.example' },
  ];
  for (const headers of forgeries)
    for (const path of ['/.well-known/oauth-authorization-server/oauth', '/oauth/.well-known/openid-configuration']) {
      const answer = await rawGet(path, headers);
      expect({ path, headers, status: answer.status }).toEqual({ path, headers, status: 200 });
      const document = JSON.parse(answer.body) as Record<string, unknown>;
      expect(document.issuer).toBe(`${PUBLIC_URL}/oauth`);
      const endpoints = Object.entries(document).filter(([key]) => key.endsWith('_endpoint') || key === 'jwks_uri');
      expect(endpoints.map(([key]) => key)).toEqual(
        expect.arrayContaining(['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'jwks_uri']),
      );
      for (const [key, value] of endpoints)
        expect({ key, value }).toEqual({ key, value: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/oauth/`)) });
    }
});

test("a web client's redirect URLs must be https; loopback http is for native apps", async () => {
  for (const uri of ['http://127.0.0.1:33418/callback', 'http://localhost:33418/callback', 'http://[::1]/callback']) {
    const refused = await registration({ redirect_uris: [uri] });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: 'invalid_redirect_uri',
      error_description: expect.stringContaining('native apps only'),
    });
  }
  const native = await registration({ redirect_uris: ['http://127.0.0.1:33418/callback'], application_type: 'native' });
  expect(native.status).toBe(201);
  const web = await registration({ redirect_uris: ['https://assistant.example/callback'] });
  expect(web.status).toBe(201);
});

test('only the authorization code flow: no hybrid response type is offered, registered or answered', async () => {
  const discovery = JSON.parse((await rawGet('/oauth/.well-known/openid-configuration', {})).body);
  expect(discovery.response_types_supported).toEqual(['code']);

  for (const responseTypes of [['code id_token'], ['code', 'code id_token'], ['id_token']]) {
    const refused = await registration({
      redirect_uris: ['https://assistant.example/callback'],
      response_types: responseTypes,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client_metadata' });
  }

  const registered = await registration({ redirect_uris: ['https://assistant.example/callback'] });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const params = new URLSearchParams({
    response_type: 'code id_token',
    client_id: clientId,
    redirect_uri: 'https://assistant.example/callback',
    scope: 'openid read',
    nonce: 'n-0S6_WzA2Mj',
    state: 'st',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  const hybrid = await fetch(`${production.url}/oauth/auth?${params}`, { redirect: 'manual' });
  // RFC 6749 4.1.2.1: the error goes back to the client's redirect URL; no code, no ID token.
  const location = hybrid.headers.get('location') ?? '';
  expect(location).toMatch(/^https:\/\/assistant\.example\/callback[?#]/);
  const answer = new URLSearchParams(location.replace(/^[^?#]*[?#]/, ''));
  expect(answer.get('error')).toBe('unsupported_response_type');
  expect(answer.get('id_token')).toBeNull();
  expect(answer.get('code')).toBeNull();
});
