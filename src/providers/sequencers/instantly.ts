import { vendorRequestOk, bearerCall, unexpectedReply, type VendorCall } from '../vendor-http';
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

export const INSTANTLY_DEFAULT_API_URL = 'https://api.instantly.ai/api/v2';

const PAGE_SIZE = 100;
const MAX_PAGES = 100;

/** Instantly's numeric campaign status (developer.instantly.ai/api/v2/campaign). */
const CAMPAIGN_STATUS: Record<string, string> = {
  '0': 'draft',
  '1': 'active',
  '2': 'paused',
  '3': 'completed',
  '4': 'running_subsequences',
  '-1': 'accounts_unhealthy',
  '-2': 'bounce_protect',
  '-99': 'suspended',
};

/** Instantly API v2: `Authorization: Bearer <key>`. */
export class InstantlySequencer implements Sequencer {
  readonly name = 'instantly' as const;

  constructor(private readonly endpoint: VendorEndpoint) {}

  /** `GET /workspaces/current` (secondary source); a key without `workspaces:read` is refused. */
  async validateKey(apiKey: string): Promise<KeyCheck> {
    return checkKey('Instantly', this.call(apiKey, 'GET /workspaces/current', 'GET', '/workspaces/current'));
  }

  /** Cursor paging: `starting_after` takes the previous page's `next_starting_after`. */
  async listCampaigns(apiKey: string): Promise<SequencerCampaign[]> {
    const campaigns: SequencerCampaign[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query: Record<string, string | number> = { limit: PAGE_SIZE };
      if (cursor) query.starting_after = cursor;
      const call = this.call(apiKey, 'GET /campaigns', 'GET', '/campaigns', query);
      const body = (await vendorRequestOk(call)).body as { items?: unknown; next_starting_after?: unknown } | undefined;
      if (!body || !Array.isArray(body.items)) throw unexpectedReply(call, 'no items array');
      for (const item of body.items) {
        const campaign = normaliseCampaign(item);
        if (campaign) campaigns.push(campaign);
      }
      const next = typeof body.next_starting_after === 'string' ? body.next_starting_after : undefined;
      if (!next || next === cursor || body.items.length === 0) break;
      cursor = next;
    }
    return campaigns;
  }

  /**
   * `POST /leads` with `skip_if_in_campaign: true`. Instantly documents no response for a
   * skipped lead; a third-party client records that a skip answers 2xx without a lead `id`
   * (secondary), so a 2xx without `id` is read as a duplicate. Instantly's own fields carry the
   * lead, and `custom_variables` the nine by the specification's names (values must be scalars,
   * Instantly's lead schema: ours are all strings).
   */
  async addLead(apiKey: string, campaignId: string, lead: SequencerLead): Promise<LeadPush> {
    refuseLeadWithoutEmail(this.name, lead);
    const call = this.call(
      apiKey,
      'POST /leads',
      'POST',
      '/leads',
      {},
      {
        campaign: campaignId,
        email: lead.email,
        first_name: lead.firstName,
        last_name: lead.lastName,
        company_name: lead.companyName,
        job_title: lead.title,
        website: lead.companyWebsite,
        custom_variables: specificationVariables(lead),
        skip_if_in_campaign: true,
      },
    );
    const { body } = await vendorRequestOk(call);
    const id = (body as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' && id ? { added: true, duplicate: false } : { added: false, duplicate: true };
  }

  private call(
    apiKey: string,
    operation: string,
    method: VendorCall['method'],
    path: string,
    query: Record<string, string | number> = {},
    json?: unknown,
  ): VendorCall {
    return bearerCall(this.name, this.endpoint, apiKey, { operation, method, path, query, json });
  }
}

function normaliseCampaign(item: unknown): SequencerCampaign | undefined {
  const raw = item as { id?: unknown; name?: unknown; status?: unknown } | null;
  if (typeof raw?.id !== 'string' && typeof raw?.id !== 'number') return undefined;
  const status = CAMPAIGN_STATUS[String(raw.status)] ?? 'unknown';
  return { id: String(raw.id), name: typeof raw.name === 'string' ? raw.name : '', status };
}
