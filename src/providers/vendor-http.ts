import { Agent, request } from 'undici';
import { classifyHttpStatus, OutboundHttpError } from './outbound-error';

/** Same default as one webhook attempt (`WEBHOOK_TIMEOUT_MS`). */
export const DEFAULT_VENDOR_TIMEOUT_MS = 10_000;

/** Smartlead returns every campaign in one bare array; agencies can have thousands. */
const MAX_REPLY_BYTES = 10 * 1024 * 1024;

/**
 * A dispatcher of our own, so a global dispatcher installed elsewhere (a redirect interceptor,
 * an SSRF filter meant for customer URLs) never changes vendor calls. undici 7's `request`
 * follows no redirect without the redirect interceptor, so a 3xx comes back as it is and is
 * classified permanent (contract section 6).
 */
const vendorAgent = new Agent({ connect: { timeout: DEFAULT_VENDOR_TIMEOUT_MS } });

/** Query parameters that carry credentials: Smartlead's `api_key`, lemlist's `access_token`. */
const SECRET_QUERY = /([?&](?:api_key|access_token|token|key)=)[^&#\s"']*/gi;

/** How an adapter is constructed: the base URL comes from the environment (tests point it at local servers). */
export interface VendorEndpoint {
  baseUrl: string;
  timeoutMs?: number;
}

export interface VendorCall {
  vendor: string;
  /** What errors name instead of the URL, e.g. `POST /campaigns/{id}/leads`: no key, no e-mail. */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: URL;
  headers?: Record<string, string>;
  json?: unknown;
  timeoutMs?: number;
  /** Values scrubbed from any text this module lets out (the key itself, wherever it travels). */
  secrets?: string[];
}

export interface VendorReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the body is JSON, else the text, else undefined. */
  body: unknown;
}

export function vendorUrl(baseUrl: string, path: string, query: Record<string, string | number> = {}): URL {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  return url;
}

/** A call authorised by `Authorization: Bearer <token>` (OAuth tokens, Bearer API keys); the token never leaves in an error. */
export function bearerCall(
  vendor: string,
  endpoint: VendorEndpoint,
  token: string,
  request: {
    operation: string;
    method: VendorCall['method'];
    path: string;
    query?: Record<string, string | number>;
    json?: unknown;
  },
): VendorCall {
  return {
    vendor,
    operation: request.operation,
    method: request.method,
    url: vendorUrl(endpoint.baseUrl, request.path, request.query),
    headers: { authorization: `Bearer ${token}` },
    json: request.json,
    timeoutMs: endpoint.timeoutMs,
    secrets: [token],
  };
}

/** For anyone who logs a vendor URL: credential query parameters replaced. */
export function redactUrl(url: URL | string): string {
  return String(url).replace(SECRET_QUERY, '$1[redacted]');
}

export function scrub(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(SECRET_QUERY, '$1[redacted]');
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** Sends one call; answers whatever status the vendor gave. Throws only when no answer came. */
export async function vendorRequest(call: VendorCall): Promise<VendorReply> {
  const timeoutMs = call.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS;
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  if (call.json !== undefined) headers['content-type'] = 'application/json';
  try {
    const reply = await request(call.url, {
      method: call.method,
      headers,
      body: call.json === undefined ? undefined : JSON.stringify(call.json),
      dispatcher: vendorAgent,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await readCapped(reply.body);
    return { status: reply.statusCode, headers: reply.headers, body: parseBody(text) };
  } catch (error) {
    throw new OutboundHttpError(
      `${call.vendor} ${call.operation} failed: ${describeNetworkError(error, timeoutMs, call.secrets)}`,
      {
        vendor: call.vendor,
        permanent: false,
      },
    );
  }
}

/** Sends one call and throws the classified error unless the vendor answered 2xx. */
export async function vendorRequestOk(call: VendorCall): Promise<VendorReply> {
  const reply = await vendorRequest(call);
  if (reply.status < 200 || reply.status >= 300) throw vendorFailure(call, reply);
  return reply;
}

export function vendorFailure(call: VendorCall, reply: VendorReply): OutboundHttpError {
  const verdict = classifyHttpStatus(reply.status, reply.headers['retry-after']);
  const detail = vendorMessage(reply.body);
  const message = `${call.vendor} ${call.operation} answered HTTP ${reply.status}${detail ? `: ${detail}` : ''}`;
  return new OutboundHttpError(scrub(message, call.secrets), {
    vendor: call.vendor,
    status: reply.status,
    permanent: verdict.outcome === 'permanent',
    ...(verdict.outcome === 'retry' && verdict.retryAfterSeconds !== undefined
      ? { retryAfterSeconds: verdict.retryAfterSeconds }
      : {}),
  });
}

/** A 2xx whose body is not the documented shape: treated as a vendor glitch, so retryable. */
export function unexpectedReply(call: VendorCall, what: string): OutboundHttpError {
  return new OutboundHttpError(`${call.vendor} ${call.operation} answered an unexpected body: ${what}`, {
    vendor: call.vendor,
    permanent: false,
  });
}

/** The vendor's own words, short: `message`, `error`, or plain text. */
export function vendorMessage(body: unknown): string {
  let text = '';
  if (typeof body === 'string') text = body;
  else if (Array.isArray(body)) return vendorMessage(body[0]);
  else if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const candidate = record.message ?? record.error ?? record.errors;
    text = typeof candidate === 'string' ? candidate : candidate === undefined ? '' : JSON.stringify(candidate);
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_REPLY_BYTES) {
      body.destroy();
      throw new Error(`reply larger than ${MAX_REPLY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeNetworkError(error: unknown, timeoutMs: number, secrets?: string[]): string {
  const name = (error as { name?: string })?.name ?? '';
  const code = (error as { code?: string })?.code ?? '';
  if (name === 'TimeoutError' || name === 'AbortError' || /TIMEOUT/.test(code)) {
    return `no answer within ${timeoutMs} ms`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return scrub(`${code ? `${code} ` : ''}${message}`, secrets);
}
