import { vendorRequestOk, vendorUrl, unexpectedReply, type VendorCall } from '../vendor-http';
import {
  refuseLeadWithoutEmail,
  type KeyCheck,
  type LeadPush,
  type Sequencer,
  type SequencerCampaign,
  type SequencerLead,
  type VendorEndpoint,
  checkKey,
  specificationVariables,
} from './sequencer';

export const SMARTLEAD_DEFAULT_API_URL = 'https://server.smartlead.ai/api/v1';

/**
 * Smartlead API. The key travels only as `?api_key=` (help.smartlead.ai), so every URL this
 * adapter builds holds the key: errors name the operation, never the URL, and any text the
 * vendor sends back is scrubbed of the key (vendor-http).
 */
export class SmartleadSequencer implements Sequencer {
  readonly name = 'smartlead' as const;

  constructor(private readonly endpoint: VendorEndpoint) {}

  /** Smartlead has no key-check endpoint; a 200 from `GET /campaigns/` serves (inference). */
  async validateKey(apiKey: string): Promise<KeyCheck> {
    return checkKey('Smartlead', this.call(apiKey, 'GET /campaigns/', 'GET', '/campaigns/'));
  }

  /** `GET /campaigns/` answers every campaign in one bare array; status words are upper-case. */
  async listCampaigns(apiKey: string): Promise<SequencerCampaign[]> {
    const call = this.call(apiKey, 'GET /campaigns/', 'GET', '/campaigns/');
    const { body } = await vendorRequestOk(call);
    if (!Array.isArray(body)) throw unexpectedReply(call, 'not a campaign array');
    return body.flatMap((item) => {
      const raw = item as { id?: unknown; name?: unknown; status?: unknown } | null;
      if (typeof raw?.id !== 'string' && typeof raw?.id !== 'number') return [];
      const status = typeof raw.status === 'string' && raw.status ? raw.status.toLowerCase() : 'unknown';
      return [{ id: String(raw.id), name: typeof raw.name === 'string' ? raw.name : '', status }];
    });
  }

  /**
   * `POST /campaigns/{id}/leads` with all three settings false, their documented defaults: block
   * and unsubscribe lists apply, and a lead already in another campaign is skipped. The guide
   * answers `added_count`/`skipped_count`; older answers carry `upload_count`, read as a fallback.
   * A skipped lead is reported as a duplicate. Smartlead's own fields (email, names, company,
   * website) carry the lead, and `custom_fields` the nine by the specification's names.
   */
  async addLead(apiKey: string, campaignId: string, lead: SequencerLead): Promise<LeadPush> {
    refuseLeadWithoutEmail(this.name, lead);
    const path = `/campaigns/${encodeURIComponent(campaignId)}/leads`;
    const call = this.call(apiKey, 'POST /campaigns/{id}/leads', 'POST', path, {
      lead_list: [
        {
          email: lead.email,
          first_name: lead.firstName,
          last_name: lead.lastName,
          company_name: lead.companyName,
          website: lead.companyWebsite,
          custom_fields: specificationVariables(lead),
        },
      ],
      settings: {
        ignore_global_block_list: false,
        ignore_unsubscribe_list: false,
        ignore_duplicate_leads_in_other_campaign: false,
      },
    });
    const body = (await vendorRequestOk(call)).body as Record<string, unknown> | undefined;
    const added = count(body?.added_count) ?? count(body?.upload_count);
    if (added === undefined) throw unexpectedReply(call, 'no added_count');
    return added > 0 ? { added: true, duplicate: false } : { added: false, duplicate: true };
  }

  private call(
    apiKey: string,
    operation: string,
    method: VendorCall['method'],
    path: string,
    json?: unknown,
  ): VendorCall {
    return {
      vendor: this.name,
      operation,
      method,
      url: vendorUrl(this.endpoint.baseUrl, path, { api_key: apiKey }),
      json,
      timeoutMs: this.endpoint.timeoutMs,
      secrets: [apiKey],
    };
  }
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
