import {
  vendorFailure,
  vendorRequest,
  vendorRequestOk,
  vendorUrl,
  unexpectedReply,
  type VendorCall,
} from '../vendor-http';
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

export const LEMLIST_DEFAULT_API_URL = 'https://api.lemlist.com/api';

/** lemlist: "100 per default (and 100 max)" per page (developer docs, campaigns). */
const PAGE_SIZE = 100;
const MAX_PAGES = 100;

/**
 * lemlist API (developer.lemlist.com; l3mpire/lemlist-developer). Authenticates with HTTP Basic,
 * empty user and the key as password, never `?access_token=`, so the key stays out of URLs.
 */
export class LemlistSequencer implements Sequencer {
  readonly name = 'lemlist' as const;

  constructor(private readonly endpoint: VendorEndpoint) {}

  async validateKey(apiKey: string): Promise<KeyCheck> {
    // GET /team is the documented key check; its body echoes `apiKey`, so it is never logged.
    return checkKey('lemlist', this.call(apiKey, 'GET /team', 'GET', '/team'));
  }

  /**
   * The older docs page with `offset`/`limit` and answer a bare array of `{_id, name, labels}`;
   * the newer page requires `version=v2`, answers `{campaigns, pagination}` with a `status`, and
   * is paged by `page` in n8n's client (secondary). Both are sent and both shapes read; paging
   * stops on a short page, the last page, or a page that brings no new id, so a server honouring
   * either parameter ends correctly. The older shape has no status: reported as `unknown`.
   */
  async listCampaigns(apiKey: string): Promise<SequencerCampaign[]> {
    const found = new Map<string, SequencerCampaign>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      const query = { version: 'v2', offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, page };
      const call = this.call(apiKey, 'GET /campaigns', 'GET', '/campaigns', query);
      const { items, lastPage } = readCampaignPage(call, (await vendorRequestOk(call)).body);
      const before = found.size;
      for (const item of items) {
        const campaign = normaliseCampaign(item);
        if (campaign) found.set(campaign.id, campaign);
      }
      if (lastPage || items.length < PAGE_SIZE || found.size === before) break;
    }
    return [...found.values()];
  }

  /**
   * `POST /campaigns/{id}/leads/{email}?deduplicate=true`: lemlist takes any JSON keys, its own
   * (email, firstName, lastName, companyName, linkedinUrl, jobTitle) by name and the rest as custom
   * variables: the nine by the specification's names, and `jobTitle` for lemlist's own title field. `deduplicate=true` "will not insert the lead if email address already inserted"
   * in another campaign. lemlist documents no status for that refusal: a 409, or a 400 whose
   * message says "already", is read as a duplicate; any other 400 stays a permanent error.
   */
  async addLead(apiKey: string, campaignId: string, lead: SequencerLead): Promise<LeadPush> {
    refuseLeadWithoutEmail(this.name, lead);
    const path = `/campaigns/${encodeURIComponent(campaignId)}/leads/${encodeURIComponent(lead.email)}`;
    const call = this.call(
      apiKey,
      'POST /campaigns/{id}/leads/{email}',
      'POST',
      path,
      { deduplicate: 'true' },
      { jobTitle: lead.title, ...specificationVariables(lead) },
    );
    const reply = await vendorRequest(call);
    if (reply.status >= 200 && reply.status < 300) return { added: true, duplicate: false };
    if (reply.status === 409 || (reply.status === 400 && /already/i.test(JSON.stringify(reply.body ?? '')))) {
      return { added: false, duplicate: true };
    }
    throw vendorFailure(call, reply);
  }

  private call(
    apiKey: string,
    operation: string,
    method: VendorCall['method'],
    path: string,
    query: Record<string, string | number> = {},
    json?: unknown,
  ): VendorCall {
    return {
      vendor: this.name,
      operation,
      method,
      url: vendorUrl(this.endpoint.baseUrl, path, query),
      headers: { authorization: `Basic ${Buffer.from(`:${apiKey}`).toString('base64')}` },
      json,
      timeoutMs: this.endpoint.timeoutMs,
      secrets: [apiKey],
    };
  }
}

function readCampaignPage(call: VendorCall, body: unknown): { items: unknown[]; lastPage: boolean } {
  if (Array.isArray(body)) return { items: body, lastPage: false };
  const page = body as { campaigns?: unknown; pagination?: { currentPage?: unknown; totalPage?: unknown } } | undefined;
  if (page && Array.isArray(page.campaigns)) {
    const { currentPage, totalPage } = page.pagination ?? {};
    const lastPage = typeof currentPage === 'number' && typeof totalPage === 'number' && currentPage >= totalPage;
    return { items: page.campaigns, lastPage };
  }
  throw unexpectedReply(call, 'neither a campaign array nor {campaigns: [...]}');
}

function normaliseCampaign(item: unknown): SequencerCampaign | undefined {
  const raw = item as { _id?: unknown; id?: unknown; name?: unknown; status?: unknown } | null;
  const id = raw?._id ?? raw?.id;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const status = typeof raw?.status === 'string' && raw.status ? raw.status.toLowerCase() : 'unknown';
  return { id: String(id), name: typeof raw?.name === 'string' ? raw.name : '', status };
}
