import { z } from 'zod';
import type { Services } from '../../src/services';
import { notFound } from '../../src/errors';
import { signalType } from '../../src/signal-types/registry';
import { authErrors, errorEnvelope, pageEnvelope, pageQuery, uuidParam } from '../schemas/common';
import { importResult, removeWatchedCompaniesBody, watchedCompaniesBody } from '../schemas/signals';
import { defineRoute } from '../route';

const tags = ['watchlists'];
const params = uuidParam('signalId');
const errors = {
  404: { description: 'Unknown signal, or not an account watchlist (NOT_FOUND)', schema: errorEnvelope },
  ...authErrors,
};
const watchedCompany = z
  .object({
    id: z.uuid(),
    name: z.string().nullable(),
    domain: z.string().nullable(),
    linkedinUrl: z.string().nullable(),
    addedAt: z.string(),
  })
  .meta({ id: 'WatchedCompany' });

const watchlistOf = async (signals: Services['signals'], accountId: string, signalId: string) => {
  const signal = await signals.requireOwned(accountId, signalId);
  // Only a type that watches companies has a watchlist (the account watchlist).
  if (!signalType(signal.signalTypeId).watchesCompanies) throw notFound('Watchlist');
  return signal;
};

const listWatchedCompaniesRoute = ({ watchlists, signals }: Pick<Services, 'watchlists' | 'signals'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/watchlists/{signalId}/companies',
    operationId: 'listWatchedCompanies',
    summary: 'The companies an account-watchlist signal watches',
    tags,
    access: { kind: 'apiKey', permission: 'read' },
    params,
    query: pageQuery,
    responses: {
      200: {
        description: 'Watched companies',
        schema: z.object({ items: z.array(watchedCompany), ...pageEnvelope }),
      },
      ...errors,
    },
    handle: async ({ caller, params, query }) => {
      await watchlistOf(signals, caller.accountId, params.signalId);
      return watchlists.list(params.signalId, query);
    },
  });

const addWatchedCompaniesRoute = ({ watchlists, signals }: Pick<Services, 'watchlists' | 'signals'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/watchlists/{signalId}/companies',
    operationId: 'addWatchedCompanies',
    summary: 'Add companies (names, domains, company URLs or objects); answers watched, rejected and alreadyWatched',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    params,
    body: watchedCompaniesBody,
    responses: { 200: { description: 'Import result', schema: importResult }, ...errors },
    handle: async ({ caller, params, body }) => {
      await watchlistOf(signals, caller.accountId, params.signalId);
      return watchlists.add(params.signalId, body.companies);
    },
  });

const removeWatchedCompaniesRoute = ({ watchlists, signals }: Pick<Services, 'watchlists' | 'signals'>) =>
  defineRoute({
    method: 'delete',
    path: '/api/v1/watchlists/{signalId}/companies',
    operationId: 'removeWatchedCompanies',
    summary: 'Remove watched companies by entry id or by the same identifiers an upload uses',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    params,
    body: removeWatchedCompaniesBody,
    responses: { 200: { description: 'Removed', schema: z.object({ removed: z.number().int() }) }, ...errors },
    handle: async ({ caller, params, body }) => {
      await watchlistOf(signals, caller.accountId, params.signalId);
      return watchlists.remove(params.signalId, body);
    },
  });

export function watchlistRoutes(services: Services) {
  return [
    listWatchedCompaniesRoute(services),
    addWatchedCompaniesRoute(services),
    removeWatchedCompaniesRoute(services),
  ];
}
