import { z } from 'zod';
import type { Services } from '../../src/services';
import { authErrors, errorEnvelope, uuidParam } from '../schemas/common';
import { SIGNAL_TYPES, signalType, type SignalType } from '../../src/signal-types/registry';
import { fieldProblemsOf, validationError } from '../../src/errors';
import type { Caller } from '../../src/services/api-keys';
import {
  createBodyOf,
  previewSignalBody,
  signalListQuery,
  signalPreviewSchema,
  signalListSchema,
  signalActivitySchema,
  signalResourceSchema,
  updateSignalBody,
} from '../schemas/signals';
import { defineRoute } from '../route';

const tags = ['signals'];
const read = { kind: 'apiKey', permission: 'read' } as const;
const write = { kind: 'apiKey', permission: 'write' } as const;
const signalParam = uuidParam('signalId');
const notFound = {
  404: { description: 'Unknown signal, or one of another account (NOT_FOUND)', schema: errorEnvelope },
};
const writeErrors = {
  400: { description: 'MISSING_REQUIRED_FIELDS, INVALID_LOCATION or INVALID_REQUEST', schema: errorEnvelope },
  402: { description: 'Activating with no credits (INSUFFICIENT_CREDITS)', schema: errorEnvelope },
  422: {
    description: 'Schema failure, including a config field that does not exist for the type (VALIDATION_ERROR)',
    schema: errorEnvelope,
  },
};

/** A type's price in words, as its create route and the tool descriptions state it. */
export const priceInWords = (type: SignalType) =>
  `${type.creditsPerLead} credits per lead${type.creditsPerEmailFound ? `, +${type.creditsPerEmailFound} per email found` : ''}`;

/**
 * A cost preview of a create body: checked by the type's create schema (the same 422s), then
 * evaluated over the stored events without producing or charging. REST and the tool share it.
 */
export function previewSignal(
  { signalPreviews }: Pick<Services, 'signalPreviews'>,
  caller: Caller,
  body: z.output<typeof previewSignalBody>,
) {
  const { signalTypeId, ...rest } = body;
  const parsed = createBodyOf(signalType(signalTypeId)).safeParse({ ...rest, name: rest.name ?? 'Preview' });
  if (!parsed.success) throw validationError(fieldProblemsOf(parsed.error));
  return signalPreviews.preview(caller, signalTypeId, parsed.data);
}

/** The OpenAPI operation that creates a signal of the type. */
export const createOperationIdOf = (type: SignalType) => `create${type.operationName}Signal`;

// One create route per registered type, all alike but for the type's path, body and words.
const createRoutes = ({ signals }: Pick<Services, 'signals'>) =>
  SIGNAL_TYPES.map((type) =>
    defineRoute({
      method: 'post',
      path: `/api/v1/signals/${type.createPath}`,
      operationId: createOperationIdOf(type),
      summary: type.createSummary(priceInWords(type)),
      tags,
      access: write,
      body: createBodyOf(type),
      responses: { 201: { description: 'Created', schema: signalResourceSchema }, ...writeErrors, ...authErrors },
      handle: ({ caller, body }) => signals.create(caller, type.signalTypeId, body),
    }),
  );

const previewSignalRoute = ({ signalPreviews }: Pick<Services, 'signalPreviews'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/signals/preview',
    operationId: 'previewSignal',
    summary:
      'What a signal would match, produce and cost over the last 30 days of stored events, before it exists (prices and the suppression list applied); nothing is produced or charged',
    tags,
    access: read,
    body: previewSignalBody,
    responses: {
      200: { description: 'The preview', schema: signalPreviewSchema },
      400: writeErrors[400],
      422: writeErrors[422],
      ...authErrors,
      429: {
        description:
          'Over the per-key request rate (RATE_LIMITED), or the key already has its cap of previews running (TOO_MANY_CONCURRENT_REQUESTS, answered at once); see Retry-After',
        schema: errorEnvelope,
      },
      503: {
        description: 'Every connection for previews is busy (ANALYSIS_BUSY); see Retry-After',
        schema: errorEnvelope,
      },
      504: {
        description: 'The preview read past its time-out and was stopped (PREVIEW_TIMEOUT)',
        schema: errorEnvelope,
      },
    },
    handle: ({ caller, body }) => previewSignal({ signalPreviews }, caller, body),
  });

const listSignalsRoute = ({ signals }: Pick<Services, 'signals'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/signals',
    operationId: 'listSignals',
    summary: "The account's signals, newest first",
    tags,
    access: read,
    query: signalListQuery,
    responses: { 200: { description: 'Signals page', schema: signalListSchema }, ...authErrors },
    handle: ({ caller, query }) => signals.list(caller, query),
  });

const getSignalRoute = ({ signals }: Pick<Services, 'signals'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/signals/{signalId}',
    operationId: 'getSignal',
    summary: 'One signal, with applied settings and warnings',
    tags,
    access: read,
    params: signalParam,
    responses: { 200: { description: 'Signal', schema: signalResourceSchema }, ...notFound, ...authErrors },
    handle: ({ caller, params }) => signals.get(caller.accountId, params.signalId),
  });

const updateSignalRoute = ({ signals }: Pick<Services, 'signals'>) =>
  defineRoute({
    method: 'patch',
    path: '/api/v1/signals/{signalId}',
    operationId: 'updateSignal',
    summary:
      'Change a signal: status, config (merged), webhook URL, destinations, CRM exclusions, name, cap, duplicate handling',
    tags,
    access: write,
    params: signalParam,
    body: updateSignalBody,
    responses: {
      200: { description: 'Updated signal', schema: signalResourceSchema },
      409: {
        description: 'Enabling a destination that is not connected (INTEGRATION_NOT_CONNECTED)',
        schema: errorEnvelope,
      },
      502: {
        description: 'The sequencer could not be asked for its campaigns (INTEGRATION_UNAVAILABLE)',
        schema: errorEnvelope,
      },
      ...writeErrors,
      404: { description: 'Unknown signal or integrationId of another account (NOT_FOUND)', schema: errorEnvelope },
      ...authErrors,
    },
    handle: ({ caller, params, body }) => signals.update(caller, params.signalId, body),
  });

const pauseSignalRoute = ({ signals }: Pick<Services, 'signals'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/signals/{signalId}/pause',
    operationId: 'pauseSignal',
    summary: 'Pause a signal: it produces nothing until resumed',
    tags,
    access: write,
    params: signalParam,
    responses: { 200: { description: 'Paused signal', schema: signalResourceSchema }, ...notFound, ...authErrors },
    handle: ({ caller, params }) => signals.setStatus(caller, params.signalId, 'paused'),
  });

const resumeSignalRoute = ({ signals }: Pick<Services, 'signals'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/signals/{signalId}/resume',
    operationId: 'resumeSignal',
    summary: 'Resume (activate) a signal; checks required fields and credits as creation does',
    tags,
    access: write,
    params: signalParam,
    responses: {
      200: { description: 'Active signal', schema: signalResourceSchema },
      ...writeErrors,
      ...notFound,
      ...authErrors,
    },
    handle: ({ caller, params }) => signals.setStatus(caller, params.signalId, 'active'),
  });

const deleteSignalRoute = ({ signals }: Pick<Services, 'signals'>) =>
  defineRoute({
    method: 'delete',
    path: '/api/v1/signals/{signalId}',
    operationId: 'deleteSignal',
    summary: 'Delete a signal: pending deliveries are cancelled and nothing further is billed; afterwards 404',
    tags,
    access: write,
    params: signalParam,
    responses: {
      204: {
        description:
          "Deleted. When Temporal did not confirm within a second that the signal's workflows stopped, a `Warning: 199` header says so (the deletion stands)",
      },
      ...notFound,
      ...authErrors,
    },
    handle: async ({ caller, params, ctx }) => {
      const { warnings } = await signals.delete(caller.accountId, params.signalId);
      // 204 has no body: the warning travels as RFC 7234's miscellaneous warning (199).
      if (warnings.length > 0) ctx.set('Warning', warnings.map((w) => `199 - ${JSON.stringify(w.message)}`).join(', '));
    },
  });

const getSignalActivityRoute = ({ signalActivity }: Pick<Services, 'signalActivity'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/signals/{signalId}/activity',
    operationId: 'getSignalActivity',
    summary: 'What the signal is doing now: evaluating, next evaluation, leads still being delivered',
    tags,
    access: read,
    params: signalParam,
    responses: { 200: { description: 'Signal activity', schema: signalActivitySchema }, ...notFound, ...authErrors },
    handle: ({ caller, params }) => signalActivity.read(caller.accountId, params.signalId),
  });

export function signalRoutes(services: Services) {
  return [
    ...createRoutes(services),
    previewSignalRoute(services),
    listSignalsRoute(services),
    getSignalRoute(services),
    updateSignalRoute(services),
    pauseSignalRoute(services),
    resumeSignalRoute(services),
    deleteSignalRoute(services),
    getSignalActivityRoute(services),
  ];
}

export const signalIdParam = signalParam;
