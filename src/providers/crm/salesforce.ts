import { OutboundHttpError, MAX_RETRY_AFTER_SECONDS } from '../outbound-error';
import {
  unexpectedReply,
  vendorFailure,
  vendorRequest,
  bearerCall,
  type VendorCall,
  type VendorEndpoint,
} from '../vendor-http';
import type { CrmLead } from './hubspot';

/** The REST API version pushed to (Salesforce keeps each for years). */
export const SALESFORCE_API_VERSION = 'v62.0';

/**
 * Salesforce, at the connection's `instance_url`: each lead becomes a Lead (LastName and
 * Company are required). A retried push finds the Lead it made by e-mail and updates it
 * instead of making a second one. Refusals are arrays of `{message, errorCode, fields}`:
 * DUPLICATES_DETECTED and validation errors fail at once; REQUEST_LIMIT_EXCEEDED (403, the
 * org's daily API allowance) waits an hour; INVALID_SESSION_ID (401) makes the caller refresh.
 */
export class SalesforceCrm {
  readonly name = 'salesforce' as const;

  constructor(private readonly endpoint: VendorEndpoint) {}

  async pushLead(accessToken: string, lead: CrmLead): Promise<{ leadId: string; created: boolean }> {
    const fields = {
      FirstName: lead.firstName || undefined,
      LastName: lead.lastName || lead.email || 'Unknown',
      Company: lead.companyName || lead.companyDomain || 'Unknown',
      Title: lead.title || undefined,
      Email: lead.email || undefined,
      Phone: lead.phone || undefined,
      Website: lead.companyWebsite || undefined,
      LeadSource: 'Intent signal',
      Description: `${lead.signalName} (lead ${lead.leadId})`,
    };
    const existing = lead.email ? await this.findByEmail(accessToken, lead.email) : undefined;
    if (existing) {
      await this.send(
        this.call(
          accessToken,
          'PATCH /sobjects/Lead/{id}',
          'PATCH',
          `/sobjects/Lead/${encodeURIComponent(existing)}`,
          fields,
        ),
      );
      return { leadId: existing, created: false };
    }
    const create = this.call(accessToken, 'POST /sobjects/Lead', 'POST', '/sobjects/Lead', fields);
    const body = (await this.send(create)) as { id?: unknown } | undefined;
    if (typeof body?.id !== 'string') throw unexpectedReply(create, 'no id');
    return { leadId: body.id, created: true };
  }

  private async findByEmail(token: string, email: string): Promise<string | undefined> {
    const soql = `SELECT Id FROM Lead WHERE Email = '${email.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}' ORDER BY CreatedDate LIMIT 1`;
    const query = this.call(token, 'GET /query (Lead by e-mail)', 'GET', '/query', undefined, { q: soql });
    const body = (await this.send(query)) as { records?: { Id?: unknown }[] } | undefined;
    if (!body || !Array.isArray(body.records)) throw unexpectedReply(query, 'no records array');
    const id = body.records[0]?.Id;
    return typeof id === 'string' ? id : undefined;
  }

  private send(call: VendorCall): Promise<unknown> {
    return salesforceSend(call);
  }

  private call(
    token: string,
    operation: string,
    method: VendorCall['method'],
    path: string,
    json?: unknown,
    query: Record<string, string> = {},
  ): VendorCall {
    const api = { ...this.endpoint, baseUrl: `${this.endpoint.baseUrl}/services/data/${SALESFORCE_API_VERSION}` };
    return bearerCall(this.name, api, token, { operation, method, path, query, json });
  }
}

/**
 * One call answered 2xx, else its error: REQUEST_LIMIT_EXCEEDED (the org's daily API allowance)
 * waits an hour, everything else is classified as every vendor's is.
 */
export async function salesforceSend(call: VendorCall): Promise<unknown> {
  const reply = await vendorRequest(call);
  if (reply.status >= 200 && reply.status < 300) return reply.body;
  const code = Array.isArray(reply.body)
    ? (reply.body[0] as { errorCode?: unknown } | undefined)?.errorCode
    : undefined;
  if (code === 'REQUEST_LIMIT_EXCEEDED') {
    throw new OutboundHttpError(
      `salesforce ${call.operation}: the org's API request limit is used up (REQUEST_LIMIT_EXCEEDED)`,
      { vendor: 'salesforce', status: reply.status, permanent: false, retryAfterSeconds: MAX_RETRY_AFTER_SECONDS },
    );
  }
  throw vendorFailure(call, reply);
}
