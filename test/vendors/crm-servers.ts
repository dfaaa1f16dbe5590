import { randomUUID } from 'node:crypto';
import {
  hasMalformedJson,
  startVendorServer,
  type ReceivedRequest,
  type VendorAnswer,
  type VendorServer,
} from './vendor-server';

type Authorizes = (authorization: string | undefined) => boolean;

/**
 * Salesforce's REST API at an instance URL (`/services/data/v62.0`): SOQL query, Lead create and
 * update. LastName and Company are required (REQUIRED_FIELD_MISSING); an e-mail listed in
 * `duplicateEmails` trips a duplicate rule (DUPLICATES_DETECTED); errors are arrays of
 * `{message, errorCode, fields}`; an unknown session is 401 INVALID_SESSION_ID.
 */
export interface SalesforceServer extends VendorServer {
  leads: { Id: string; [field: string]: unknown }[];
  duplicateEmails: Set<string>;
}

export async function startSalesforce(authorizes: Authorizes): Promise<SalesforceServer> {
  const leads: SalesforceServer['leads'] = [];
  const duplicateEmails = new Set<string>();
  const sfError = (status: number, errorCode: string, message: string, fields: string[] = []): VendorAnswer => ({
    status,
    body: [{ message, errorCode, fields }],
  });
  const handle = (req: ReceivedRequest): VendorAnswer => {
    if (!authorizes(req.headers.authorization)) return sfError(401, 'INVALID_SESSION_ID', 'Session expired or invalid');
    if (hasMalformedJson(req)) return sfError(400, 'JSON_PARSER_ERROR', 'The request body is not JSON');
    if (req.method === 'GET' && req.path === '/query') {
      const email = /Email = '((?:[^'\\]|\\.)*)'/.exec(req.query.q ?? '')?.[1]?.replace(/\\(.)/g, '$1');
      const records = leads.filter((l) => email !== undefined && l.Email === email).map((l) => ({ Id: l.Id }));
      return { status: 200, body: { totalSize: records.length, done: true, records } };
    }
    const fields = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && req.path === '/sobjects/Lead') {
      const missing = ['LastName', 'Company'].filter((f) => !fields[f]);
      if (missing.length)
        return sfError(400, 'REQUIRED_FIELD_MISSING', `Required fields are missing: [${missing.join(', ')}]`, missing);
      if (typeof fields.Email === 'string' && duplicateEmails.has(fields.Email))
        return sfError(400, 'DUPLICATES_DETECTED', 'Use one of these records?');
      const lead = { Id: `00Q${randomUUID().replace(/-/g, '').slice(0, 15)}`, ...fields };
      leads.push(lead);
      return { status: 201, body: { id: lead.Id, success: true, errors: [] } };
    }
    const update = /^\/sobjects\/Lead\/([^/]+)$/.exec(req.path);
    if (req.method === 'PATCH' && update) {
      const lead = leads.find((l) => l.Id === update[1]);
      if (!lead) return sfError(404, 'NOT_FOUND', 'The requested resource does not exist');
      Object.assign(lead, fields);
      return { status: 204 };
    }
    return sfError(404, 'NOT_FOUND', 'The requested resource does not exist');
  };
  const server = await startVendorServer({
    basePath: '/services/data/v62.0',
    handle,
    failureBody: (status) =>
      status === 403
        ? [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }]
        : [{ message: 'Internal error', errorCode: 'UNKNOWN_EXCEPTION' }],
  });
  return Object.assign(server, { leads, duplicateEmails, url: server.url.replace('/services/data/v62.0', '') });
}

/**
 * Pipedrive's API at a company's `api_domain`: organization and person search (exact match)
 * and create (v2), leads list by person and create (v1). Errors are `{success: false, error}`;
 * 401 for a bad token; 429 carries `Retry-After` and the `x-ratelimit-*` headers.
 */
export interface PipedriveServer extends VendorServer {
  organizations: { id: number; name: string }[];
  persons: { id: number; name: string; emails: { value: string }[]; org_id?: number }[];
  leads: { id: string; title: string; person_id: number; organization_id?: number }[];
}

export async function startPipedrive(authorizes: Authorizes): Promise<PipedriveServer> {
  const organizations: PipedriveServer['organizations'] = [];
  const persons: PipedriveServer['persons'] = [];
  const leads: PipedriveServer['leads'] = [];
  let nextId = 100;
  const pdError = (status: number, error: string): VendorAnswer => ({
    status,
    body: { success: false, error, errorCode: status },
  });
  const found = (items: { id: number }[]) => ({
    status: 200,
    body: { success: true, data: { items: items.map((item) => ({ result_score: 1, item })) } },
  });
  const handle = (req: ReceivedRequest): VendorAnswer => {
    if (!authorizes(req.headers.authorization)) return pdError(401, 'unauthorized access');
    if (hasMalformedJson(req)) return pdError(400, 'Malformed JSON');
    const body = (req.body ?? {}) as Record<string, any>;
    if (req.method === 'GET' && req.path === '/api/v2/organizations/search')
      return found(organizations.filter((o) => o.name === req.query.term));
    if (req.method === 'GET' && req.path === '/api/v2/persons/search')
      return found(persons.filter((p) => p.emails.some((e) => e.value === req.query.term)));
    if (req.method === 'POST' && req.path === '/api/v2/organizations') {
      if (!body.name) return pdError(400, 'Name must be given');
      const organization = { id: nextId++, name: body.name };
      organizations.push(organization);
      return { status: 200, body: { success: true, data: organization } };
    }
    if (req.method === 'POST' && req.path === '/api/v2/persons') {
      if (!body.name) return pdError(400, 'Name must be given');
      const person = {
        id: nextId++,
        name: body.name,
        emails: body.emails ?? [],
        ...(body.org_id ? { org_id: body.org_id } : {}),
      };
      persons.push(person);
      return { status: 200, body: { success: true, data: person } };
    }
    if (req.method === 'GET' && req.path === '/api/v1/leads')
      return {
        status: 200,
        body: { success: true, data: leads.filter((l) => String(l.person_id) === req.query.person_id) },
      };
    if (req.method === 'POST' && req.path === '/api/v1/leads') {
      if (!body.title || !(body.person_id || body.organization_id))
        return pdError(400, 'title and person_id or organization_id are required');
      const lead = {
        id: randomUUID(),
        title: body.title,
        person_id: body.person_id,
        ...(body.organization_id ? { organization_id: body.organization_id } : {}),
      };
      leads.push(lead);
      return { status: 201, body: { success: true, data: lead } };
    }
    return pdError(404, 'Not found');
  };
  const server = await startVendorServer({
    basePath: '',
    handle,
    failureBody: (status) => ({
      success: false,
      error: status === 429 ? 'Rate limit exceeded' : 'Internal error',
      errorCode: status,
    }),
  });
  return Object.assign(server, { organizations, persons, leads });
}

/**
 * Google Sheets API v4: values update (the header), get (column A) and append, on spreadsheets
 * that exist (`spreadsheets` keys); errors `{error: {code, message, status}}`: 401
 * UNAUTHENTICATED, 404 NOT_FOUND, 429 RESOURCE_EXHAUSTED.
 */
export interface SheetsServer extends VendorServer {
  /** spreadsheet id → sheet name → rows. */
  spreadsheets: Map<string, Map<string, string[][]>>;
}

export async function startSheets(authorizes: Authorizes): Promise<SheetsServer> {
  const spreadsheets: SheetsServer['spreadsheets'] = new Map();
  const gError = (code: number, status: string, message: string): VendorAnswer => ({
    status: code,
    body: { error: { code, message, status } },
  });
  const handle = (req: ReceivedRequest): VendorAnswer => {
    if (!authorizes(req.headers.authorization))
      return gError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    const match = /^\/spreadsheets\/([^/]+)\/values\/(.+?)(:append)?$/.exec(req.path);
    if (!match) return gError(404, 'NOT_FOUND', 'Requested entity was not found.');
    const sheets = spreadsheets.get(match[1]!);
    if (!sheets) return gError(404, 'NOT_FOUND', 'Requested entity was not found.');
    const sheetName = /^'((?:[^']|'')*)'!/.exec(match[2]!)?.[1]?.replace(/''/g, "'") ?? match[2]!.split('!')[0]!;
    const rows = sheets.get(sheetName);
    if (!rows) return gError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${match[2]}`);
    const values = ((req.body ?? {}) as { values?: string[][] }).values ?? [];
    if (req.method === 'PUT') {
      if (req.query.valueInputOption !== 'RAW') return gError(400, 'INVALID_ARGUMENT', 'valueInputOption is required');
      rows[0] = values[0] ?? [];
      return { status: 200, body: { spreadsheetId: match[1], updatedRows: 1 } };
    }
    if (req.method === 'POST' && match[3]) {
      rows.push(...values);
      return { status: 200, body: { spreadsheetId: match[1], updates: { updatedRows: values.length } } };
    }
    if (req.method === 'GET')
      return { status: 200, body: { range: match[2], majorDimension: 'ROWS', values: rows.map((r) => [r[0] ?? '']) } };
    return gError(404, 'NOT_FOUND', 'Requested entity was not found.');
  };
  const server = await startVendorServer({
    basePath: '/v4',
    handle,
    failureBody: (status) =>
      status === 429
        ? {
            error: {
              code: 429,
              message: "Quota exceeded for quota metric 'Write requests'",
              status: 'RESOURCE_EXHAUSTED',
            },
          }
        : { error: { code: status, message: 'Internal error', status: 'INTERNAL' } },
  });
  return Object.assign(server, { spreadsheets, url: server.url.replace('/v4', '') });
}
