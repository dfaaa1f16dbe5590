import { OutboundHttpError } from '../outbound-error';
import {
  unexpectedReply,
  vendorMessage,
  vendorRequestOk,
  bearerCall,
  type VendorCall,
  type VendorEndpoint,
} from '../vendor-http';

export interface CrmLead {
  email: string;
  firstName: string;
  lastName: string;
  title: string;
  phone: string;
  linkedinUrl: string;
  companyName: string;
  companyDomain: string;
  companyWebsite: string;
  signalName: string;
  leadId: string;
}

export interface CrmPush {
  contactId?: string;
  companyId?: string;
}

/**
 * Contact properties sent, all HubSpot defaults. `linkedinUrl`, `signalName` and `leadId` have no
 * documented default property, and HubSpot refuses an unknown property name with a 400 (which
 * would fail every push for good), so they are not sent.
 */
const CONTACT_PROPERTIES = {
  email: 'email',
  firstName: 'firstname',
  lastName: 'lastname',
  title: 'jobtitle',
  phone: 'phone',
  companyName: 'company',
} as const satisfies Partial<Record<keyof CrmLead, string>>;

/**
 * HubSpot CRM with an OAuth access token (Bearer). Tokens are refreshed by their owner on
 * `expires_in`, not here on a 401 (HubSpot usage details): a 401 is permanent.
 */
export class HubSpotCrm {
  readonly name = 'hubspot' as const;

  constructor(private readonly endpoint: VendorEndpoint) {}

  /** Company by domain, then contact by e-mail, then the default contact→company association. */
  async pushLead(accessToken: string, lead: CrmLead): Promise<CrmPush> {
    const domain = companyDomainOf(lead);
    const companyId = domain ? await this.upsertCompany(accessToken, domain, lead) : undefined;
    if (!lead.email.trim()) return companyId ? { companyId } : {};
    const contactId = await this.upsertContact(accessToken, lead);
    if (!companyId) return { contactId };
    await this.associate(accessToken, contactId, companyId);
    return { contactId, companyId };
  }

  /**
   * HubSpot calls `domain` "the primary unique identifier to avoid duplicate companies", but its
   * batch upsert needs a unique-valued property and `domain` may not be one (inference), so this
   * searches then creates. The oldest match wins when several companies share the domain. The
   * search index lags creation by seconds: two pushes for one new domain at once can both create.
   */
  private async upsertCompany(token: string, domain: string, lead: CrmLead): Promise<string> {
    const search = this.call(
      token,
      'POST /crm/v3/objects/companies/search',
      'POST',
      '/crm/v3/objects/companies/search',
      {
        filterGroups: [{ filters: [{ propertyName: 'domain', operator: 'EQ', value: domain }] }],
        sorts: [{ propertyName: 'createdate', direction: 'ASCENDING' }],
        properties: ['domain', 'name'],
        limit: 1,
      },
    );
    const found = (await vendorRequestOk(search)).body as { results?: { id?: unknown }[] } | undefined;
    if (!found || !Array.isArray(found.results)) throw unexpectedReply(search, 'no results array');
    const existing = found.results[0]?.id;
    if (existing !== undefined) return String(existing);

    const create = this.call(token, 'POST /crm/v3/objects/companies', 'POST', '/crm/v3/objects/companies', {
      properties: withoutEmpty({ name: lead.companyName, domain, website: lead.companyWebsite }),
    });
    return idOf(create, (await vendorRequestOk(create)).body);
  }

  /**
   * Batch upsert keyed on `email`, HubSpot's unique contact identifier. Empty values are left out
   * so a re-push never blanks what the customer's CRM already holds.
   */
  private async upsertContact(token: string, lead: CrmLead): Promise<string> {
    const properties = withoutEmpty(
      Object.fromEntries(
        Object.entries(CONTACT_PROPERTIES).map(([ours, theirs]) => [theirs, lead[ours as keyof CrmLead]]),
      ),
    );
    const call = this.call(
      token,
      'POST /crm/v3/objects/contacts/batch/upsert',
      'POST',
      '/crm/v3/objects/contacts/batch/upsert',
      {
        inputs: [{ id: lead.email, idProperty: 'email', properties }],
      },
    );
    const body = (await vendorRequestOk(call)).body as { results?: { id?: unknown }[]; errors?: unknown[] } | undefined;
    const id = body?.results?.[0]?.id;
    if (id !== undefined) return String(id);
    if (Array.isArray(body?.errors) && body.errors.length > 0) {
      // 207 Multi-Status: the input itself was refused, so resending it cannot help.
      throw new OutboundHttpError(`hubspot ${call.operation} refused the contact: ${vendorMessage(body.errors[0])}`, {
        vendor: 'hubspot',
        permanent: true,
      });
    }
    throw unexpectedReply(call, 'no results[0].id');
  }

  /** v4 "default association" (HubSpot-defined contact→company, type 279): no body needed. */
  private async associate(token: string, contactId: string, companyId: string): Promise<void> {
    const path = `/crm/v4/objects/contacts/${encodeURIComponent(contactId)}/associations/default/companies/${encodeURIComponent(companyId)}`;
    await vendorRequestOk(
      this.call(token, 'PUT /crm/v4/objects/contacts/{id}/associations/default/companies/{id}', 'PUT', path),
    );
  }

  private call(
    token: string,
    operation: string,
    method: VendorCall['method'],
    path: string,
    json?: unknown,
  ): VendorCall {
    return bearerCall(this.name, this.endpoint, token, { operation, method, path, json });
  }
}

/** HubSpot keys companies on a bare domain: no scheme, no `www.`, lower case. */
export function companyDomainOf(lead: Pick<CrmLead, 'companyDomain' | 'companyWebsite'>): string | undefined {
  const raw = (lead.companyDomain.trim() || lead.companyWebsite.trim()).toLowerCase();
  if (!raw) return undefined;
  try {
    const host = new URL(raw.includes('://') ? raw : `https://${raw}`).hostname.replace(/^www\./, '');
    return host.includes('.') ? host : undefined;
  } catch {
    return undefined;
  }
}

function withoutEmpty(properties: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(properties).filter(([, value]) => value.trim() !== ''));
}

function idOf(call: VendorCall, body: unknown): string {
  const id = (body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' && typeof id !== 'number') throw unexpectedReply(call, 'no id');
  return String(id);
}
