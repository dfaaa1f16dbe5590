import { randomUUID } from 'node:crypto';
import {
  hasMalformedJson,
  startVendorServer,
  type ReceivedRequest,
  type VendorAnswer,
  type VendorServer,
} from './vendor-server';

/**
 * A local HubSpot CRM (no base path): Bearer access token, errors as
 * `{status: 'error', message, correlationId, category}`, company search (`EQ` filters, sorts),
 * company create, contact batch upsert keyed on `email` (answering `new` per record), and the
 * v4 default contact→company association (types 279/280). Unknown property names are refused
 * with 400 `PROPERTY_DOESNT_EXIST`, as HubSpot does.
 */
export interface HubSpotRecord {
  id: string;
  properties: Record<string, string>;
}

export interface HubSpotServer extends VendorServer {
  accessToken: string;
  companies: HubSpotRecord[];
  contacts: HubSpotRecord[];
  associations: { contactId: string; companyId: string }[];
}

const COMPANY_PROPERTIES = new Set(['name', 'domain', 'website', 'phone', 'city', 'industry', 'description']);
const CONTACT_PROPERTIES = new Set(['email', 'firstname', 'lastname', 'jobtitle', 'phone', 'company', 'website']);

const error = (status: number, category: string, message: string): VendorAnswer => ({
  status,
  body: { status: 'error', message, correlationId: randomUUID(), category },
});

/** `authorizes`: the OAuth stand-in's check of a Bearer header, when tokens come from a real flow. */
export async function start(
  options: { accessToken?: string; authorizes?: (authorization: string | undefined) => boolean } = {},
): Promise<HubSpotServer> {
  const accessToken = options.accessToken ?? 'hubspot-good-token';
  const authorizes = options.authorizes ?? ((authorization) => authorization === `Bearer ${accessToken}`);
  const companies: HubSpotRecord[] = [];
  const contacts: HubSpotRecord[] = [];
  const associations: { contactId: string; companyId: string }[] = [];
  let nextId = 5000;

  const handle = (req: ReceivedRequest): VendorAnswer => {
    if (!authorizes(req.headers.authorization)) {
      return error(401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found.');
    }
    if (hasMalformedJson(req)) return error(400, 'VALIDATION_ERROR', 'Invalid input JSON');
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && req.path === '/crm/v3/objects/companies/search') return searchCompanies(body);
    if (req.method === 'POST' && req.path === '/crm/v3/objects/companies') return createCompany(body);
    if (req.method === 'POST' && req.path === '/crm/v3/objects/contacts/batch/upsert') return upsertContacts(body);
    const link = /^\/crm\/v4\/objects\/contacts\/([^/]+)\/associations\/default\/companies\/([^/]+)$/.exec(req.path);
    if (req.method === 'PUT' && link) return associate(link[1] as string, link[2] as string);
    return error(404, 'OBJECT_NOT_FOUND', `No route for ${req.method} ${req.path}`);
  };

  function searchCompanies(body: Record<string, unknown>): VendorAnswer {
    const groups = (body.filterGroups ?? []) as {
      filters?: { propertyName: string; operator: string; value: string }[];
    }[];
    const matches = companies.filter(
      (c) =>
        groups.length === 0 ||
        groups.some((g) =>
          (g.filters ?? []).every(
            (f) => f.operator === 'EQ' && (c.properties[f.propertyName] ?? '').toLowerCase() === f.value.toLowerCase(),
          ),
        ),
    );
    const limit = typeof body.limit === 'number' ? body.limit : 10;
    return { status: 200, body: { total: matches.length, results: matches.slice(0, limit).map(asObject) } };
  }

  function createCompany(body: Record<string, unknown>): VendorAnswer {
    const properties = (body.properties ?? {}) as Record<string, string>;
    const unknown = Object.keys(properties).find((p) => !COMPANY_PROPERTIES.has(p));
    if (unknown) return propertyDoesNotExist(unknown);
    const company = { id: String(nextId++), properties: { ...properties } };
    companies.push(company);
    return { status: 201, body: asObject(company) };
  }

  function upsertContacts(body: Record<string, unknown>): VendorAnswer {
    const inputs = (body.inputs ?? []) as { id?: string; idProperty?: string; properties?: Record<string, string> }[];
    if (inputs.some((i) => i.idProperty !== 'email' || !i.id)) {
      return error(400, 'VALIDATION_ERROR', 'idProperty must be a unique property such as email, and id is required');
    }
    const results = [];
    for (const input of inputs) {
      const properties = input.properties ?? {};
      const unknown = Object.keys(properties).find((p) => !CONTACT_PROPERTIES.has(p));
      if (unknown) return propertyDoesNotExist(unknown);
      const existing = contacts.find((c) => c.properties.email?.toLowerCase() === input.id?.toLowerCase());
      if (existing) {
        Object.assign(existing.properties, properties);
        results.push({ ...asObject(existing), new: false });
      } else {
        const contact = { id: String(nextId++), properties: { email: input.id as string, ...properties } };
        contacts.push(contact);
        results.push({ ...asObject(contact), new: true });
      }
    }
    const now = new Date().toISOString();
    return { status: 200, body: { status: 'COMPLETE', results, startedAt: now, completedAt: now } };
  }

  function associate(contactId: string, companyId: string): VendorAnswer {
    if (!contacts.some((c) => c.id === contactId))
      return error(404, 'OBJECT_NOT_FOUND', `No contact with ID ${contactId}`);
    if (!companies.some((c) => c.id === companyId))
      return error(404, 'OBJECT_NOT_FOUND', `No company with ID ${companyId}`);
    if (!associations.some((a) => a.contactId === contactId && a.companyId === companyId))
      associations.push({ contactId, companyId });
    const spec = (associationTypeId: number) => ({ associationCategory: 'HUBSPOT_DEFINED', associationTypeId });
    return {
      status: 200,
      body: {
        status: 'COMPLETE',
        results: [
          { from: { id: contactId }, to: { id: companyId }, associationSpec: spec(279) },
          { from: { id: companyId }, to: { id: contactId }, associationSpec: spec(280) },
        ],
      },
    };
  }

  const server = await startVendorServer({
    basePath: '',
    handle,
    failureBody: (status) =>
      status === 429
        ? {
            status: 'error',
            message: 'You have reached your secondly limit.',
            errorType: 'RATE_LIMIT',
            policyName: 'SECONDLY',
            correlationId: randomUUID(),
          }
        : error(status, 'INTERNAL_ERROR', 'internal error').body,
  });

  return Object.assign(server, { accessToken, companies, contacts, associations });
}

function asObject(record: HubSpotRecord) {
  const now = new Date().toISOString();
  return {
    id: record.id,
    properties: { ...record.properties, hs_object_id: record.id },
    createdAt: now,
    updatedAt: now,
    archived: false,
  };
}

function propertyDoesNotExist(name: string): VendorAnswer {
  return error(
    400,
    'VALIDATION_ERROR',
    `Property values were not valid: [{"isValid":false,"message":"Property \\"${name}\\" does not exist","error":"PROPERTY_DOESNT_EXIST","name":"${name}"}]`,
  );
}
