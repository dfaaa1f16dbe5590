import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { validationError } from '../../errors';

/**
 * Only ordinary public unicast addresses may receive deliveries when private targets are
 * refused: loopback, private, link-local (cloud metadata lives there), carrier-grade NAT,
 * multicast and reserved ranges all fail. An IPv6 address carrying an IPv4 one is judged by
 * the IPv4 address: IPv4-mapped (`::ffff:127.0.0.1`) and the deprecated IPv4-compatible form
 * (`::127.0.0.1`, written `::7f00:1`), which ipaddr.js files under ordinary unicast.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv6') {
    const parts = (parsed as ipaddr.IPv6).parts;
    // ::/96 is IPv4-compatible; `::` and `::1` (unspecified, loopback) fall in it too and are refused as 0.0.0.x.
    if (parts.slice(0, 6).every((part) => part === 0)) {
      const [high, low] = [parts[6], parts[7]];
      return ipaddr.IPv4.parse([high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')).range() === 'unicast';
    }
  }
  return parsed.range() === 'unicast';
}

/** The longest webhook URL taken, wherever one is given. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/**
 * What is wrong with a webhook URL's form, or null: absolute, http or https, no credentials.
 * Hosts are names or IP literals alike (`http://[2001:db8::1]/hook`); which addresses may
 * receive is the address rule's business (assertWebhookTarget), not the form's.
 */
export function webhookUrlProblem(rawUrl: string): string | null {
  if (rawUrl.length > WEBHOOK_URL_MAX_LENGTH) return `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry credentials';
  return null;
}

/** The one schema of a webhook URL in a request body: signal create and PATCH, test-webhook's `url`. */
export const webhookUrlSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ format: 'uri', maxLength: WEBHOOK_URL_MAX_LENGTH });

/**
 * Save-time check of a webhook or test URL: its form, then, when private targets are refused,
 * every address it names or resolves to. The send path checks again at connect time, because
 * DNS can change between saving and sending.
 */
export async function assertWebhookTarget(rawUrl: string, allowPrivate: boolean, field = 'webhookUrl'): Promise<void> {
  const problem = webhookUrlProblem(rawUrl);
  if (problem) throw validationError([{ field, message: problem }]);
  if (allowPrivate) return;
  const host = new URL(rawUrl).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw validationError([{ field, message: `host ${host} does not resolve` }]);
  }
  const blocked = addresses.filter((address) => !isPublicAddress(address));
  if (addresses.length === 0 || blocked.length > 0) {
    throw validationError([
      {
        field,
        message: `resolves to a non-public address (${blocked.join(', ') || 'none'}); private targets are refused`,
      },
    ]);
  }
}
