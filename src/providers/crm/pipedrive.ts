import { bearerCall, unexpectedReply, vendorRequestOk, type VendorCall, type VendorEndpoint } from '../vendor-http';
import type { CrmLead } from './hubspot';

interface Found {
  data?: { items?: { item?: { id?: unknown } }[] } | { id?: unknown }[] | { id?: unknown } | null;
}

/**
 * Pipedrive, at the connection's `api_domain`: an organization (found by exact name, else
 * made), a person (found by exact e-mail, else made) and a lead for that person. Pipedrive
 * offers no upsert, so every step looks first: a retried push finds what the first made.
 * 429 answers carry `Retry-After`, which the delivery honours.
 */
export class PipedriveCrm {
  readonly name = 'pipedrive' as const;

  constructor(private readonly endpoint: VendorEndpoint) {}

  async pushLead(accessToken: string, lead: CrmLead): Promise<{ leadId: string }> {
    const organizationId = lead.companyName ? await this.organization(accessToken, lead.companyName) : undefined;
    const personId = await this.person(accessToken, lead, organizationId);
    const existing = await this.read(accessToken, 'GET /api/v1/leads', '/api/v1/leads', { person_id: personId });
    const current = Array.isArray(existing.data) ? existing.data[0]?.id : undefined;
    if (typeof current === 'string') return { leadId: current };
    const create = this.call(accessToken, 'POST /api/v1/leads', 'POST', '/api/v1/leads', {
      title: `${[lead.firstName, lead.lastName].filter(Boolean).join(' ') || lead.email}: ${lead.signalName}`,
      person_id: personId,
      ...(organizationId ? { organization_id: organizationId } : {}),
    });
    const made = (await vendorRequestOk(create)).body as { data?: { id?: unknown } } | undefined;
    if (typeof made?.data?.id !== 'string') throw unexpectedReply(create, 'no data.id');
    return { leadId: made.data.id };
  }

  private async organization(token: string, name: string): Promise<number> {
    const found = await this.read(token, 'GET /api/v2/organizations/search', '/api/v2/organizations/search', {
      term: name,
      fields: 'name',
      exact_match: 'true',
    });
    const id = firstItemId(found);
    if (id !== undefined) return id;
    return this.create(token, 'POST /api/v2/organizations', '/api/v2/organizations', { name });
  }

  private async person(token: string, lead: CrmLead, organizationId: number | undefined): Promise<number> {
    if (lead.email) {
      const found = await this.read(token, 'GET /api/v2/persons/search', '/api/v2/persons/search', {
        term: lead.email,
        fields: 'email',
        exact_match: 'true',
      });
      const id = firstItemId(found);
      if (id !== undefined) return id;
    }
    return this.create(token, 'POST /api/v2/persons', '/api/v2/persons', {
      name: [lead.firstName, lead.lastName].filter(Boolean).join(' ') || lead.email || lead.companyName,
      ...(lead.email ? { emails: [{ value: lead.email, primary: true, label: 'work' }] } : {}),
      ...(lead.phone ? { phones: [{ value: lead.phone, primary: true, label: 'work' }] } : {}),
      ...(organizationId ? { org_id: organizationId } : {}),
    });
  }

  private async read(
    token: string,
    operation: string,
    path: string,
    query: Record<string, string | number>,
  ): Promise<Found> {
    const call = this.call(token, operation, 'GET', path, undefined, query);
    const body = (await vendorRequestOk(call)).body as Found | undefined;
    if (!body || typeof body !== 'object') throw unexpectedReply(call, 'no JSON body');
    return body;
  }

  private async create(token: string, operation: string, path: string, json: unknown): Promise<number> {
    const call = this.call(token, operation, 'POST', path, json);
    const body = (await vendorRequestOk(call)).body as { data?: { id?: unknown } } | undefined;
    if (typeof body?.data?.id !== 'number') throw unexpectedReply(call, 'no data.id');
    return body.data.id;
  }

  private call(
    token: string,
    operation: string,
    method: VendorCall['method'],
    path: string,
    json?: unknown,
    query: Record<string, string | number> = {},
  ): VendorCall {
    return bearerCall(this.name, this.endpoint, token, { operation, method, path, query, json });
  }
}

function firstItemId(found: Found): number | undefined {
  const data = found.data;
  const items = data && !Array.isArray(data) && 'items' in data ? data.items : undefined;
  const id = items?.[0]?.item?.id;
  return typeof id === 'number' ? id : undefined;
}
