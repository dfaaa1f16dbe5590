import type { Services } from '../../src/services';
import { invalidRequest, validationError } from '../../src/errors';
import { authErrors, errorEnvelope, uuidParam } from '../schemas/common';
import {
  addSuppressionsBody,
  suppressionImportQuery,
  suppressionImportResult,
  suppressionPage,
  suppressionsAdded,
  suppressionsQuery,
} from '../schemas/suppressions';
import { defineRoute } from '../route';
import { readBody } from '../raw-body';

const tags = ['suppressions'];
const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain'];
const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

const listSuppressionsRoute = ({ suppressions }: Pick<Services, 'suppressions'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/suppressions',
    operationId: 'listSuppressions',
    summary: "The account's suppression list, newest first; filter by kind or signal",
    tags,
    access: { kind: 'apiKey', permission: 'read' },
    query: suppressionsQuery,
    responses: { 200: { description: 'Entries', schema: suppressionPage }, ...authErrors },
    handle: ({ caller, query }) => suppressions.list(caller.accountId, query),
  });

const addSuppressionsRoute = ({ suppressions }: Pick<Services, 'suppressions'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/suppressions',
    operationId: 'addSuppressions',
    summary:
      'Add one entry or up to 10,000 (an array): people and companies never to produce or charge; duplicates and unusable values are reported',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    body: addSuppressionsBody,
    responses: {
      200: { description: 'Added, duplicates and rejected entries (by index)', schema: suppressionsAdded },
      409: {
        description:
          "The entries would take the account's list past its limit; nothing added (SUPPRESSION_LIMIT_REACHED)",
        schema: errorEnvelope,
      },
      422: {
        description: 'Not an entry or an array of 1 to 10,000 of them, or a single unusable entry (VALIDATION_ERROR)',
        schema: errorEnvelope,
      },
      ...authErrors,
    },
    handle: async ({ caller, body }) => {
      const single = !Array.isArray(body);
      const added = await suppressions.add(caller.accountId, single ? [body] : body);
      // One entry sent alone: an unusable value is the request's error, as on every other route.
      if (single && added.rejected.length > 0)
        throw validationError([{ field: 'value', message: added.rejected[0].message }]);
      return added;
    },
  });

const importSuppressionsRoute = ({ signals, suppressions }: Pick<Services, 'signals' | 'suppressions'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/suppressions/import',
    operationId: 'importSuppressions',
    summary: 'Upload a CSV with the header kind,value,note; counts accepted, duplicate and rejected lines',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    query: suppressionImportQuery,
    responses: {
      200: { description: 'Counts and the rejected lines', schema: suppressionImportResult },
      400: { description: 'Not CSV, no header, or unreadable', schema: errorEnvelope },
      404: { description: 'Unknown signal (NOT_FOUND)', schema: errorEnvelope },
      409: {
        description: "The file would take the account's list past its limit; nothing added (SUPPRESSION_LIMIT_REACHED)",
        schema: errorEnvelope,
      },
      413: { description: 'Body over 10 MB', schema: errorEnvelope },
      ...authErrors,
    },
    handle: async ({ caller, query, ctx }) => {
      const type = ctx.request.is(CSV_TYPES);
      if (!type) throw invalidRequest('Send the list as text/csv with the header kind,value,note');
      if (query.signalId) await signals.requireOwned(caller.accountId, query.signalId);
      const csv = await readBody(ctx.req, IMPORT_BODY_LIMIT);
      if (!csv.trim()) throw invalidRequest('The body holds no lines');
      return suppressions.import(caller.accountId, csv, query.signalId);
    },
  });

const deleteSuppressionRoute = ({ suppressions }: Pick<Services, 'suppressions'>) =>
  defineRoute({
    method: 'delete',
    path: '/api/v1/suppressions/{suppressionId}',
    operationId: 'deleteSuppression',
    summary: 'Remove an entry; later evaluations may produce its person or company again (nothing retroactive)',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    params: uuidParam('suppressionId'),
    responses: {
      204: { description: 'Removed' },
      404: { description: 'No such entry on the account (NOT_FOUND)', schema: errorEnvelope },
      ...authErrors,
    },
    handle: async ({ caller, params }) => {
      await suppressions.remove(caller.accountId, params.suppressionId);
    },
  });

export function suppressionRoutes(services: Services) {
  return [
    listSuppressionsRoute(services),
    addSuppressionsRoute(services),
    importSuppressionsRoute(services),
    deleteSuppressionRoute(services),
  ];
}
