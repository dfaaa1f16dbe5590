import { randomUUID } from 'node:crypto';
import {
  hasMalformedJson,
  startVendorServer,
  type ReceivedRequest,
  type VendorAnswer,
  type VendorServer,
} from './vendor-server';

/**
 * A local Instantly API v2 (base path `/api/v2`): `Authorization: Bearer <key>`, errors in the
 * `{statusCode, error, message}` shape, `GET /workspaces/current`, `GET /campaigns` paged by
 * `limit` (1–100) and `starting_after` with `next_starting_after`, numeric campaign statuses,
 * and `POST /leads` (email required with `campaign`; custom variable values scalars only).
 * A lead skipped by `skip_if_in_campaign` is answered 200 without an `id` — undocumented by
 * Instantly, reported by a third-party client (secondary).
 */
export interface InstantlyCampaign {
  id: string;
  name: string;
  status: number;
  timestamp_created: string;
}

export interface InstantlyLead {
  id: string;
  /** The JSON body exactly as received. */
  body: Record<string, unknown>;
}

export interface InstantlyServer extends VendorServer {
  apiKey: string;
  workspaceName: string;
  campaigns: InstantlyCampaign[];
  leads: InstantlyLead[];
  addCampaign(name: string, status?: number): InstantlyCampaign;
}

const error = (statusCode: number, message: string): VendorAnswer => ({
  status: statusCode,
  body: {
    statusCode,
    error:
      { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests' }[statusCode] ?? 'Error',
    message,
  },
});

export async function start(options: { apiKey?: string; workspaceName?: string } = {}): Promise<InstantlyServer> {
  const campaigns: InstantlyCampaign[] = [];
  const leads: InstantlyLead[] = [];
  const apiKey = options.apiKey ?? 'instantly-good-key';
  const workspaceName = options.workspaceName ?? 'Hooli Outbound';

  const handle = (req: ReceivedRequest): VendorAnswer => {
    if (req.headers.authorization !== `Bearer ${apiKey}`) return error(401, 'Invalid API key');
    if (req.method === 'GET' && req.path === '/workspaces/current') {
      return { status: 200, body: { id: 'ws-local', name: workspaceName, owner: 'usr-local', plan_id: 'pid_hg' } };
    }
    if (req.method === 'GET' && req.path === '/campaigns') return listCampaigns(req);
    if (req.method === 'POST' && req.path === '/leads') return createLead(req);
    return error(404, `Route ${req.method}:${req.path} not found`);
  };

  function listCampaigns(req: ReceivedRequest): VendorAnswer {
    const limit = Number(req.query.limit ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return error(400, 'querystring/limit must be <= 100');
    const after = req.query.starting_after;
    const start = after ? campaigns.findIndex((c) => c.id === after) + 1 : 0;
    const items = campaigns.slice(start, start + limit);
    const more = start + limit < campaigns.length;
    return { status: 200, body: { items, ...(more ? { next_starting_after: items[items.length - 1]?.id } : {}) } };
  }

  function createLead(req: ReceivedRequest): VendorAnswer {
    if (hasMalformedJson(req) || typeof req.body !== 'object' || req.body === null)
      return error(400, 'body must be object');
    const body = req.body as Record<string, unknown>;
    if (body.campaign !== undefined && typeof body.email !== 'string')
      return error(400, 'body/email is required with campaign');
    const custom = body.custom_variables;
    if (custom !== undefined && Object.values(custom as object).some((v) => v !== null && typeof v === 'object')) {
      return error(400, 'body/custom_variables values must be string, number, boolean or null');
    }
    if (body.campaign !== undefined && !campaigns.some((c) => c.id === body.campaign))
      return error(404, 'Campaign not found');
    const email = String(body.email).toLowerCase();
    const inCampaign = leads.some(
      (l) => String(l.body.email).toLowerCase() === email && l.body.campaign === body.campaign,
    );
    if (body.skip_if_in_campaign === true && inCampaign) return { status: 200, body: {} };
    const lead = { id: randomUUID(), body };
    leads.push(lead);
    const { custom_variables, skip_if_in_campaign: _skip, ...fields } = body;
    return {
      status: 200,
      body: {
        id: lead.id,
        timestamp_created: new Date().toISOString(),
        organization: 'org-local',
        status: 1,
        ...fields,
        payload: custom_variables ?? {},
      },
    };
  }

  const server = await startVendorServer({
    basePath: '/api/v2',
    handle,
    failureBody: (status) => error(status, status === 429 ? 'Rate limit exceeded' : 'Internal Server Error').body,
  });

  return Object.assign(server, {
    apiKey,
    workspaceName,
    campaigns,
    leads,
    addCampaign(name: string, status = 1) {
      const campaign = { id: randomUUID(), name, status, timestamp_created: new Date().toISOString() };
      campaigns.push(campaign);
      return campaign;
    },
  });
}
