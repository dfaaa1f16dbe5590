import {
  hasMalformedJson,
  startVendorServer,
  type ReceivedRequest,
  type VendorAnswer,
  type VendorServer,
} from './vendor-server';

/**
 * A local Smartlead (base path `/api/v1`): the key only as `?api_key=` (401 when missing or
 * wrong, whatever the headers), `GET /campaigns/` as one bare array with upper-case statuses, and
 * `POST /campaigns/{id}/leads` taking `lead_list` (at most 400) and `settings`, answering
 * `added_count`/`skipped_count` with reasons (api.smartlead.ai guides and reference).
 * Its default 5xx body echoes the full request URL, key included, as careless servers do:
 * the adapter must scrub it.
 */
export interface SmartleadCampaign {
  id: number;
  name: string;
  status: string;
  created_at: string;
  client_id: number | null;
}

export interface SmartleadLead {
  campaignId: number;
  /** One element of `lead_list` exactly as received. */
  lead: Record<string, unknown>;
}

export interface SmartleadServer extends VendorServer {
  apiKey: string;
  campaigns: SmartleadCampaign[];
  leads: SmartleadLead[];
  addCampaign(name: string, status?: string): SmartleadCampaign;
}

const MAX_LEADS_PER_REQUEST = 400;

export async function start(options: { apiKey?: string } = {}): Promise<SmartleadServer> {
  const campaigns: SmartleadCampaign[] = [];
  const leads: SmartleadLead[] = [];
  const apiKey = options.apiKey ?? 'smartlead-good-key-1234';

  const handle = (req: ReceivedRequest): VendorAnswer => {
    if (req.query.api_key !== apiKey) return { status: 401, body: { message: 'Invalid or missing API key' } };
    if (req.method === 'GET' && (req.path === '/campaigns/' || req.path === '/campaigns'))
      return { status: 200, body: campaigns };
    const add = /^\/campaigns\/([^/]+)\/leads\/?$/.exec(req.path);
    if (req.method === 'POST' && add) return addLeads(req, Number(add[1]));
    return { status: 404, body: { message: `Cannot ${req.method} ${req.path}` } };
  };

  function addLeads(req: ReceivedRequest, campaignId: number): VendorAnswer {
    const body = req.body as { lead_list?: unknown; settings?: Record<string, unknown> } | undefined;
    if (hasMalformedJson(req) || !body || !Array.isArray(body.lead_list) || body.lead_list.length === 0) {
      return { status: 400, body: { message: 'lead_list must be a non-empty array' } };
    }
    if (body.lead_list.length > MAX_LEADS_PER_REQUEST)
      return { status: 400, body: { message: 'Max 400 leads per request' } };
    if (!campaigns.some((c) => c.id === campaignId)) return { status: 404, body: { message: 'Campaign not found' } };
    const allowOtherCampaigns = body.settings?.ignore_duplicate_leads_in_other_campaign === true;
    const skipped: { email: string; reason: string }[] = [];
    let added = 0;
    for (const lead of body.lead_list as Record<string, unknown>[]) {
      const email = String(lead.email ?? '').toLowerCase();
      const same = (l: SmartleadLead) => String(l.lead.email).toLowerCase() === email;
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
        return { status: 422, body: { message: `Invalid email: ${email}` } };
      if (leads.some((l) => same(l) && l.campaignId === campaignId))
        skipped.push({ email, reason: 'already_in_campaign' });
      else if (!allowOtherCampaigns && leads.some(same)) skipped.push({ email, reason: 'duplicate_in_other_campaign' });
      else {
        leads.push({ campaignId, lead });
        added++;
      }
    }
    return {
      status: 200,
      body: {
        ok: true,
        added_count: added,
        skipped_count: skipped.length,
        skipped_leads: skipped,
        total_leads: body.lead_list.length,
      },
    };
  }

  const server = await startVendorServer({
    basePath: '/api/v1',
    handle,
    failureBody: (status, req) =>
      status === 429 ? { message: 'Rate limit exceeded' } : { message: `Internal error while handling ${req.rawUrl}` },
  });

  return Object.assign(server, {
    apiKey,
    campaigns,
    leads,
    addCampaign(name: string, status = 'ACTIVE') {
      const campaign = {
        id: 1000 + campaigns.length + 1,
        name,
        status,
        created_at: new Date().toISOString(),
        client_id: null,
      };
      campaigns.push(campaign);
      return campaign;
    },
  });
}
