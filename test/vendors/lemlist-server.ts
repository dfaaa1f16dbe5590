import {
  hasMalformedJson,
  startVendorServer,
  type ReceivedRequest,
  type VendorAnswer,
  type VendorServer,
} from './vendor-server';

/**
 * A local lemlist (base path `/api`) as developer.lemlist.com and l3mpire/lemlist-developer
 * describe it: Basic auth with an empty user and the key as password (or `?access_token=`),
 * `GET /team` (whose body echoes the key), `GET /campaigns` (bare array of `{_id, name, labels}`,
 * or with `version=v2` `{campaigns, pagination}` with a status), and
 * `POST /campaigns/{id}/leads/{email}` taking any JSON keys, `deduplicate=true` refusing an
 * e-mail already in another campaign.
 *
 * lemlist documents no status for the duplicate refusals; this server answers 409 (JSON
 * message) for an e-mail already in the same campaign and 400 (text message) for one in another
 * campaign with `deduplicate=true`: both are what the adapter must read as duplicates.
 */
export interface LemlistCampaign {
  _id: string;
  name: string;
  status: string;
  createdAt: string;
  labels?: string[];
}

export interface LemlistLead {
  campaignId: string;
  email: string;
  query: Record<string, string>;
  /** The JSON body exactly as received. */
  body: Record<string, unknown>;
}

export interface LemlistServer extends VendorServer {
  apiKey: string;
  teamName: string;
  campaigns: LemlistCampaign[];
  leads: LemlistLead[];
  addCampaign(name: string, status?: string): LemlistCampaign;
  /** When true, `GET /campaigns` answers the older bare-array shape even with `version=v2`. */
  legacyCampaignList: boolean;
}

export async function start(options: { apiKey?: string; teamName?: string } = {}): Promise<LemlistServer> {
  const campaigns: LemlistCampaign[] = [];
  const leads: LemlistLead[] = [];
  const apiKey = options.apiKey ?? 'lemlist-good-key';
  let self: LemlistServer | undefined;

  const handle = (req: ReceivedRequest): VendorAnswer => {
    if (!authorised(req, apiKey)) return { status: 401, body: 'Unauthorized' };
    if (req.method === 'GET' && req.path === '/team') {
      return {
        status: 200,
        body: {
          _id: 'tea_local',
          name: options.teamName ?? 'Pied Piper',
          userIds: ['usr_local'],
          apiKey,
          billing: { ok: true },
        },
      };
    }
    if (req.method === 'GET' && req.path === '/campaigns') return listCampaigns(req);
    const addLead = /^\/campaigns\/([^/]+)\/leads\/([^/]+)$/.exec(req.path);
    if (req.method === 'POST' && addLead) return addLeadTo(req, addLead[1] as string, addLead[2] as string);
    return { status: 404, body: 'Not Found' };
  };

  function listCampaigns(req: ReceivedRequest): VendorAnswer {
    const limit = Math.min(Number(req.query.limit ?? 100), 100);
    const offset = Number(req.query.offset ?? 0);
    const page = campaigns.slice(offset, offset + limit);
    if (req.query.version !== 'v2' || self?.legacyCampaignList) {
      return { status: 200, body: page.map(({ _id, name, labels }) => ({ _id, name, ...(labels ? { labels } : {}) })) };
    }
    const totalPage = Math.max(1, Math.ceil(campaigns.length / limit));
    const currentPage = Math.floor(offset / limit) + 1;
    return {
      status: 200,
      body: {
        campaigns: page.map((c) => ({ ...c, createdBy: 'usr_local', hasError: false, errors: [] })),
        pagination: {
          totalRecords: campaigns.length,
          currentPage,
          nextPage: currentPage < totalPage ? currentPage + 1 : null,
          totalPage,
        },
      },
    };
  }

  function addLeadTo(req: ReceivedRequest, campaignId: string, email: string): VendorAnswer {
    if (
      hasMalformedJson(req) ||
      (req.body !== undefined && (typeof req.body !== 'object' || Array.isArray(req.body)))
    ) {
      return { status: 400, body: 'Body must be a JSON object' };
    }
    const campaign = campaigns.find((c) => c._id === campaignId);
    if (!campaign) return { status: 404, body: { ok: false, message: 'Campaign not found' } };
    const same = (l: LemlistLead) => l.email.toLowerCase() === email.toLowerCase();
    if (leads.some((l) => same(l) && l.campaignId === campaignId)) {
      return { status: 409, body: { ok: false, message: 'Lead already in the campaign' } };
    }
    if (req.query.deduplicate === 'true' && leads.some(same)) {
      return { status: 400, body: 'Lead already exists in another campaign' };
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    leads.push({ campaignId, email, query: req.query, body });
    return {
      status: 200,
      body: { campaignId, campaignName: campaign.name, _id: `lea_${leads.length}`, isPaused: false, email, ...body },
    };
  }

  const server = await startVendorServer({
    basePath: '/api',
    handle,
    failureBody: (status) =>
      status === 429 ? 'Too Many Requests -- Slow down!' : { ok: false, message: `lemlist error ${status}` },
  });

  self = Object.assign(server, {
    apiKey,
    teamName: options.teamName ?? 'Pied Piper',
    campaigns,
    leads,
    addCampaign(name: string, status = 'running') {
      const campaign = { _id: `cam_${campaigns.length + 1}`, name, status, createdAt: new Date().toISOString() };
      campaigns.push(campaign);
      return campaign;
    },
    legacyCampaignList: false,
  });
  return self;
}

function authorised(req: ReceivedRequest, apiKey: string): boolean {
  if (req.query.access_token !== undefined) return req.query.access_token === apiKey;
  const match = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
  if (!match) return false;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  // lemlist: "the login is always empty and the password is the API key".
  return decoded === `:${apiKey}`;
}
