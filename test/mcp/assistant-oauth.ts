import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Page } from 'playwright-core';

/** The assistant's loopback redirect URL: a real server that keeps what the authorization server sends back. */
export interface Callback {
  url: string;
  /** The query of the last redirect that arrived. */
  last(): URLSearchParams | undefined;
  close(): Promise<void>;
}

export async function startCallback(): Promise<Callback> {
  let last: URLSearchParams | undefined;
  const server: Server = createServer((req, res) => {
    last = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    last: () => last,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * What an MCP host keeps for one server, in memory: the SDK's own OAuth client flow drives it
 * (discovery, registration, PKCE, code exchange, refresh); `authorizationUrl` is where it sent
 * the person.
 */
export class AssistantCredentials implements OAuthClientProvider {
  authorizationUrl?: URL;
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  private verifier = '';

  constructor(
    private readonly callback: Callback,
    private readonly name: string,
  ) {}

  get redirectUrl(): string {
    return this.callback.url;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.callback.url],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }
}

export function assistantTransport(toolServerUrl: string, credentials: AssistantCredentials) {
  return new StreamableHTTPClientTransport(new URL(toolServerUrl), { authProvider: credentials });
}

export async function connectWith(toolServerUrl: string, credentials: AssistantCredentials): Promise<Client> {
  const client = new Client({ name: 'oauth-assistant', version: '1.0.0' });
  await client.connect(assistantTransport(toolServerUrl, credentials));
  return client;
}

/** The person's part in the browser: opens the authorization URL and, when asked, allows; answers the callback's query. */
export async function authorizeInBrowser(
  page: Page,
  url: string | URL,
  callback: Callback,
  options: { allow?: boolean; expectConsent?: boolean } = {},
): Promise<URLSearchParams> {
  await page.goto(String(url));
  if (options.expectConsent !== false && !page.url().startsWith(callback.url)) {
    await page.waitForSelector('#assistant-name');
    await page.click(options.allow === false ? 'button[value="deny"]' : 'button[value="allow"]');
  }
  await page.waitForURL((u) => u.href.startsWith(callback.url));
  return new URL(page.url()).searchParams;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The whole sign-in of a new assistant: the SDK's flow, the person allowing in `page` (signed in), the code exchanged. */
export async function signInAssistant(
  page: Page,
  toolServerUrl: string,
  callback: Callback,
  name: string,
): Promise<{ client: Client; credentials: AssistantCredentials }> {
  const credentials = new AssistantCredentials(callback, name);
  await connectWith(toolServerUrl, credentials).catch(() => undefined);
  if (!credentials.authorizationUrl) throw new Error('the SDK did not ask the person to authorize');
  const answer = await authorizeInBrowser(page, credentials.authorizationUrl, callback);
  await assistantTransport(toolServerUrl, credentials).finishAuth(answer.get('code')!);
  return { client: await connectWith(toolServerUrl, credentials), credentials };
}
