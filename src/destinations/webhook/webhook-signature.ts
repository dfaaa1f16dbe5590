import { createHmac, timingSafeEqual } from 'node:crypto';

/** Receivers should refuse older (or further-future) timestamps: the usual 5 minutes (Stripe, Svix). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The specification's signature: lowercase hex HMAC-SHA256 keyed with the API key's webhook
 * secret over `${timestamp}.${rawBody}`, the raw body being the exact bytes sent.
 */
export function signWebhook(secret: string, timestamp: number | string, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * Standard Webhooks' signature (`v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`),
 * sent beside ours because it also covers the delivery id, which ours leaves unsigned. The key
 * is the same secret's text bytes as given (`whsec_…` included), not the base64-decoded part
 * after the prefix as Standard Webhooks libraries assume: one secret, one meaning, for both
 * schemes. A receiver using such a library passes the secret base64-encoded to it.
 */
export function signStandardWebhook(
  secret: string,
  id: string,
  timestamp: number | string,
  rawBody: string | Buffer,
): string {
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.`).update(rawBody).digest('base64')}`;
}

export interface WebhookHeaders {
  'X-Webhook-Id': string;
  'X-Webhook-Timestamp': string;
  'X-Webhook-Signature'?: string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature'?: string;
}

/** The headers of one send; signatures only when the signal has a linked key (else sent unsigned). */
export function webhookHeaders(
  secret: string | null,
  id: string,
  timestamp: number,
  rawBody: string | Buffer,
): WebhookHeaders {
  const headers: WebhookHeaders = {
    'X-Webhook-Id': id,
    'X-Webhook-Timestamp': String(timestamp),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
  };
  if (secret !== null) {
    headers['X-Webhook-Signature'] = signWebhook(secret, timestamp, rawBody);
    headers['webhook-signature'] = signStandardWebhook(secret, id, timestamp, rawBody);
  }
  return headers;
}

export type VerifyResult = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

/**
 * What a receiver does (docs/receiving-webhooks.md sample, tests): recompute over the raw bytes, compare in
 * constant time, refuse timestamps outside the tolerance. The tolerance is not optional, unlike
 * stripe-node's low-level verifier, whose missing tolerance silently skips the check.
 */
export function verifyWebhook(input: {
  secret: string;
  rawBody: string | Buffer;
  signature: string | undefined | null;
  timestamp: string | undefined | null;
  nowSeconds?: number;
  toleranceSeconds?: number;
}): VerifyResult {
  const { signature, timestamp } = input;
  if (!signature || !timestamp) return { ok: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: 'malformed' };
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS))
    return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signWebhook(input.secret, timestamp, input.rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex')) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
