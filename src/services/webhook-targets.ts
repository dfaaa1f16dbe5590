import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { validationError } from '../errors';

/**
 * Only ordinary public unicast addresses may receive deliveries when private targets are
 * refused: loopback, private, link-local (cloud metadata lives there), carrier-grade NAT,
 * multicast and reserved ranges all fail. IPv4-mapped IPv6 is unwrapped first.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * Save-time check of a webhook or test URL. The send path checks again at connect time,
 * because DNS can change between saving and sending.
 */
export async function assertWebhookTarget(rawUrl: string, allowPrivate: boolean, field = 'webhookUrl'): Promise<void> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw validationError([{ field, message: 'must be an absolute http or https URL' }]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw validationError([{ field, message: 'must be an http or https URL' }]);
  }
  if (url.username || url.password) throw validationError([{ field, message: 'must not carry credentials' }]);
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
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
