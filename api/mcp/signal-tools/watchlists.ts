import type { Services } from '../../../src/services';
import { notFound } from '../../../src/errors';
import { signalType } from '../../../src/signal-types/registry';
import { pageQuery } from '../../schemas/common';
import { watchedCompaniesBody } from '../../schemas/signals';
import { CHANGES, READS, defineTool } from '../tool';
import { signalRef } from './inputs';

/** The caller's signal, when it has a watchlist: only a type that watches companies has one (the account watchlist). */
async function watchlistOf(signals: Services['signals'], accountId: string, signalId: string) {
  const signal = await signals.requireOwned(accountId, signalId);
  if (!signalType(signal.signalTypeId).watchesCompanies) throw notFound('Watchlist');
  return signal;
}

export const listWatchedCompaniesTool = ({ signals, watchlists }: Pick<Services, 'signals' | 'watchlists'>) =>
  defineTool({
    name: 'list_watched_companies',
    twin: 'listWatchedCompanies',
    description: 'Lists the companies an account-watchlist signal watches (paged by limit and offset). Free.',
    input: pageQuery.extend(signalRef.shape),
    annotations: READS,
    run: async (caller, { signalId, limit, offset }) => {
      await watchlistOf(signals, caller.accountId, signalId);
      return watchlists.list(signalId, { limit, offset });
    },
  });

export const addWatchedCompaniesTool = ({ signals, watchlists }: Pick<Services, 'signals' | 'watchlists'>) =>
  defineTool({
    name: 'add_watched_companies',
    twin: 'addWatchedCompanies',
    description:
      'Adds companies to an account-watchlist signal: names, domains, company page URLs or {name, domain, linkedinUrl} objects. ' +
      'Answers watched (added now), rejected (unusable entries) and alreadyWatched. Adding is free; each lead the watchlist produces costs 3 credits.',
    input: watchedCompaniesBody.extend(signalRef.shape),
    annotations: { ...CHANGES, idempotentHint: true },
    run: async (caller, { signalId, companies }) => {
      await watchlistOf(signals, caller.accountId, signalId);
      return watchlists.add(signalId, companies);
    },
  });
