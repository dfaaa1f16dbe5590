import { OutboundHttpError } from '../outbound-error';
import { vendorFailure, vendorRequest, type VendorCall } from '../vendor-http';

/**
 * What every email-sequencing tool adapter offers. Failures other than a refused key are thrown
 * as `OutboundHttpError` (see ../outbound-error), classified by the vendor's status.
 */
export type SequencerName = 'lemlist' | 'instantly' | 'smartlead';

/** The nine variables a sequencer receives per lead (interface spec, "Other records"). */
export interface SequencerLead {
  firstName: string;
  lastName: string;
  email: string;
  companyName: string;
  title: string;
  linkedinUrl: string;
  companyWebsite: string;
  signalName: string;
  matchedPersona: string;
}

/** The specification's variable names, in its order. */
export const SEQUENCER_VARIABLES = [
  'firstName',
  'lastName',
  'email',
  'companyName',
  'title',
  'linkedinUrl',
  'companyWebsite',
  'signalName',
  'matchedPersona',
] as const satisfies ReadonlyArray<keyof SequencerLead>;

/**
 * The nine variables by the specification's names, sent to every tool as its custom variables
 * beside its native fields, so a template written against the specification works in all three.
 */
export function specificationVariables(lead: SequencerLead): Record<(typeof SEQUENCER_VARIABLES)[number], string> {
  return Object.fromEntries(SEQUENCER_VARIABLES.map((name) => [name, lead[name]])) as Record<
    (typeof SEQUENCER_VARIABLES)[number],
    string
  >;
}

export type KeyCheck = { ok: true; accountLabel?: string } | { ok: false; reason: string };

/** `status` is a lower-case word, normalised across vendors. */
export interface SequencerCampaign {
  id: string;
  name: string;
  status: string;
}

export interface LeadPush {
  added: boolean;
  duplicate: boolean;
}

export type { VendorEndpoint } from '../vendor-http';

export interface Sequencer {
  readonly name: SequencerName;
  /**
   * `ok: false` only when the vendor refuses the key (401/403), so the API answers 422.
   * A vendor 5xx, 429 or network failure throws a retryable `OutboundHttpError` instead:
   * an outage must not be reported as a bad key.
   */
  validateKey(apiKey: string): Promise<KeyCheck>;
  listCampaigns(apiKey: string): Promise<SequencerCampaign[]>;
  /** `duplicate: true` when the vendor skipped the lead as already known; not an error. */
  addLead(apiKey: string, campaignId: string, lead: SequencerLead): Promise<LeadPush>;
}

/**
 * All three vendors key a lead on its e-mail (lemlist's path, Instantly's `email` required with
 * `campaign`, Smartlead's `lead_list[].email`), so a company-level lead cannot be pushed:
 * permanent, never retried.
 */
export function refuseLeadWithoutEmail(vendor: SequencerName, lead: SequencerLead): void {
  if (!lead.email.trim()) {
    throw new OutboundHttpError(`${vendor} needs an e-mail address; this lead has none`, { vendor, permanent: true });
  }
}

/**
 * Runs a key check: the vendor's 401 or 403 refuses the key; any other failure is the
 * vendor's (thrown, so the API does not wrongly tell the client its key is bad). The account
 * label is the `name` the vendor answers, when it gives one.
 */
export async function checkKey(vendorLabel: string, call: VendorCall): Promise<KeyCheck> {
  const reply = await vendorRequest(call);
  if (reply.status === 401 || reply.status === 403) {
    return { ok: false, reason: `${vendorLabel} refused the API key (HTTP ${reply.status})` };
  }
  if (reply.status < 200 || reply.status >= 300) throw vendorFailure(call, reply);
  const name = (reply.body as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name ? { ok: true, accountLabel: name } : { ok: true };
}
