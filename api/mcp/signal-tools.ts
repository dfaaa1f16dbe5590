import { z } from 'zod';
import type { Services } from '../../src/services';
import { notFound, validationError, fieldProblemsOf } from '../../src/errors';
import { listPersonas } from '../../src/catalogue/personas';
import { listIndustries } from '../../src/catalogue/industries';
import { listTechnographicTools } from '../../src/catalogue/technographics';
import { signalTypeCatalogue } from '../../src/signal-types/catalogue';
import { SIGNAL_TYPES, SIGNAL_TYPE_IDS, signalType, type SignalType } from '../../src/signal-types/registry';
import { pageQuery } from '../schemas/common';
import {
  createBodyOf,
  creationFields,
  previewSignalBody,
  signalListQuery,
  updateSignalBody,
  watchedCompaniesBody,
} from '../schemas/signals';
import { createOperationIdOf, previewSignal, signalIdParam } from '../routes/signals';
import { funnelQuery, leadsQuery } from '../routes/leads';
import { creditUsageQuery } from '../routes/credits';
import { JsonText } from '../route';
import { CHANGES, READS, defineTool, type AnyToolDef } from './tool';

/** "a, b and c" (or "a, b or c") */
const wordList = (words: string[], conjunction = 'and') =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}` : (words[0] ?? '');

/** "2 credits (job changes and hiring, +0.5 per email found) or 3 (account watchlist)": the types grouped by price. */
function pricesInWords(types: readonly SignalType[]): string {
  const groups = new Map<string, SignalType[]>();
  for (const type of types) {
    const key = `${type.creditsPerLead}/${type.creditsPerEmailFound}`;
    groups.set(key, [...(groups.get(key) ?? []), type]);
  }
  return [...groups.values()]
    .map(([first, ...others], i) => {
      const names = wordList([first!, ...others].map((t) => t.name.toLowerCase()));
      const email = first!.creditsPerEmailFound ? `, +${first!.creditsPerEmailFound} per email found` : '';
      return `${first!.creditsPerLead}${i === 0 ? ' credits' : ''} (${names}${email})`;
    })
    .join(' or ');
}

/** Lead prices, stated wherever a tool can start a signal producing (and so spending). */
const LEAD_PRICES = `Leads cost ${pricesInWords(SIGNAL_TYPES)} whatever the event, charged once when each lead is produced; a draft signal costs nothing.`;
const TYPE_IDS_IN_WORDS = wordList(SIGNAL_TYPE_IDS, 'or');

/** The REST path parameter, described for the assistant. */
const signalRef = z.object({
  signalId: signalIdParam.shape.signalId.meta({
    description: 'Id of one of the account’s signals (from list_signals or create_signal)',
  }),
});

const search = z.object({
  search: z.string().trim().max(200).optional().meta({ description: 'Text to narrow the list' }),
});

const jsonSchemaOf = (schema: z.ZodType) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' });
  return rest;
};

/**
 * `config` is accepted as any object here and checked against the type's own create body in
 * the handler, so a bad config answers the same VALIDATION_ERROR (field by field) as REST;
 * the two shapes are still published to the assistant through `anyOf`.
 */
const createSignalInput = z.strictObject({
  signalTypeId: z.enum(SIGNAL_TYPE_IDS).meta({ description: `${TYPE_IDS_IN_WORDS}; list_signal_types describes each` }),
  ...creationFields,
  config: z.record(z.string(), z.unknown()).meta({
    description: `Config of the chosen type. ${SIGNAL_TYPES.map((t) => `${t.signalTypeId}: ${t.toolConfigHint}`).join(' ')}`,
    anyOf: SIGNAL_TYPES.map((type) => jsonSchemaOf(type.configSchema)),
  }),
});

const listSignalsInput = signalListQuery.extend({
  // REST takes the query-string text "true"/"false"; a tool takes a real boolean.
  createdByThisKey: z.boolean().default(false).meta({ description: 'Only signals created with the calling API key' }),
});

/** The catalogue, signal, lead, funnel, watchlist and credit tools: each calls what its REST twin calls. */
export function signalTools(services: Services): AnyToolDef[] {
  const { signals } = services;
  const watchlistOf = async (accountId: string, signalId: string) => {
    const signal = await signals.requireOwned(accountId, signalId);
    // Only a type that watches companies has a watchlist (the account watchlist).
    if (!signalType(signal.signalTypeId).watchesCompanies) throw notFound('Watchlist');
    return signal;
  };

  return [
    defineTool({
      name: 'list_signal_types',
      twin: 'listSignalTypes',
      description: `Lists the signal types (${SIGNAL_TYPE_IDS.join(', ')}) with their config parameters, pricing (credits per lead) and the fields each lead carries. Free.`,
      input: z.object({}),
      annotations: READS,
      run: () => ({ signalTypes: signalTypeCatalogue() }),
    }),
    defineTool({
      name: 'list_personas',
      twin: 'listPersonas',
      description:
        'Lists buyer personas (e.g. Chief Technology Officer). Each `name` is what create_signal accepts in jobTitles (job changes) and targetPersonas (account watchlist, fundraising, hiring). Free.',
      input: search,
      annotations: READS,
      run: (_caller, { search: text }) => {
        // Same matching as GET /api/v1/personas: persona name or any of its titles.
        const needle = text?.toLowerCase();
        const personas = listPersonas().filter(
          (p) =>
            !needle || p.name.toLowerCase().includes(needle) || p.titles.some((t) => t.toLowerCase().includes(needle)),
        );
        return { personas };
      },
    }),
    defineTool({
      name: 'list_industries',
      twin: 'listIndustries',
      description:
        'Lists industries with their category. Names are used verbatim in the industryFilters of job-changes, fundraising and hiring signals (matching is exact; a category name covers all its industries). Free.',
      input: search,
      annotations: READS,
      run: (_caller, { search: text }) => ({ industries: listIndustries(text) }),
    }),
    defineTool({
      name: 'list_technographic_tools',
      twin: 'listTechnographicTools',
      description: 'Lists technologies companies are known to use (name and category), for company searches. Free.',
      input: search,
      annotations: READS,
      run: (_caller, { search: text }) => ({ tools: listTechnographicTools(text) }),
    }),
    defineTool({
      name: 'list_signals',
      twin: 'listSignals',
      description:
        'Lists the account’s signals, newest first, with status, leadsToday and leadsTotal; filter by status or signalTypeId. Paged by limit (1-100, default 25) and offset. Free.',
      input: listSignalsInput,
      annotations: READS,
      run: (caller, query) => signals.list(caller, query),
    }),
    defineTool({
      name: 'get_signal',
      twin: 'getSignal',
      description:
        'Reads one signal: config, status, daily cap, lead counts, settings applied differently (`applied`) and warnings. Free.',
      input: signalRef,
      annotations: READS,
      run: (caller, { signalId }) => signals.get(caller.accountId, signalId),
    }),
    defineTool({
      name: 'create_signal',
      // Every type's create route needs the same permission; the first stands for them all.
      twin: createOperationIdOf(SIGNAL_TYPES[0]!),
      description:
        'Creates a signal: a saved search that produces leads. Give signalTypeId and the same body as the REST create of that type ' +
        '(name, config, optional dailyLeadLimit, duplicateHandling, webhookUrl, status). status defaults to draft, which produces nothing; ' +
        `active starts producing and needs credits. ${LEAD_PRICES}`,
      input: createSignalInput,
      annotations: CHANGES,
      run: (caller, { signalTypeId, ...body }) => {
        const parsed = createBodyOf(signalType(signalTypeId)).safeParse(body);
        // The same answer as a REST create with this body: 422 VALIDATION_ERROR naming each field.
        if (!parsed.success) throw validationError(fieldProblemsOf(parsed.error));
        return signals.create(caller, signalTypeId, parsed.data);
      },
    }),
    defineTool({
      name: 'preview_signal',
      twin: 'previewSignal',
      description:
        'Previews a signal before creating it: give signalTypeId and the body create_signal would take (name optional). ' +
        'Answers over the last 30 days of stored events: matchingEvents, expectedLeads, expectedLeadsPerDay, ' +
        'expectedCreditsPerDay (lead prices, email price where getEmails), capLimited, the funnel and warnings. ' +
        'Nothing is created, produced or charged. Free.',
      input: previewSignalBody.extend({ config: createSignalInput.shape.config }),
      annotations: READS,
      run: (caller, body) => previewSignal(services, caller, body),
    }),
    defineTool({
      name: 'update_signal',
      twin: 'updateSignal',
      description:
        'Changes a signal: name, status, config (merged: send only changed fields; an empty list clears a list; null removes a field), ' +
        `webhookUrl, destinations, crmExclusions (leave out a connected CRM's contacts and companies), dailyLeadLimit, duplicateHandling. Setting status active starts producing. ${LEAD_PRICES}`,
      input: updateSignalBody.extend(signalRef.shape),
      annotations: { ...CHANGES, idempotentHint: true },
      run: (caller, { signalId, ...changes }) => signals.update(caller, signalId, changes),
    }),
    defineTool({
      name: 'pause_signal',
      twin: 'pauseSignal',
      description: 'Pauses a signal: it produces (and spends) nothing until resumed. Answers the signal.',
      input: signalRef,
      annotations: { ...CHANGES, idempotentHint: true },
      run: (caller, { signalId }) => signals.setStatus(caller, signalId, 'paused'),
    }),
    defineTool({
      name: 'resume_signal',
      twin: 'resumeSignal',
      description:
        'Resumes (activates) a signal so it produces leads again; checks required config and credits as creation does. ' +
        `Answers the signal. ${LEAD_PRICES}`,
      input: signalRef,
      annotations: { ...CHANGES, idempotentHint: true },
      run: (caller, { signalId }) => signals.setStatus(caller, signalId, 'active'),
    }),
    defineTool({
      name: 'delete_signal',
      twin: 'deleteSignal',
      description:
        'Deletes a signal: pending deliveries are cancelled and nothing further is billed; its leads stay in the account history. Cannot be undone.',
      input: signalRef,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      run: async (caller, { signalId }) => {
        const { warnings } = await signals.delete(caller.accountId, signalId);
        return { deleted: true, signalId, ...(warnings.length > 0 ? { warnings } : {}) };
      },
    }),
    defineTool({
      name: 'get_signal_funnel',
      twin: 'getSignalFunnel',
      description:
        'Shows how many of a signal’s candidates each filter removed over a window of event time (from/to, ISO 8601; default the last 30 days), ' +
        'ending with the leads produced. Use it to see why a signal yields few leads. Free.',
      input: funnelQuery.extend(signalRef.shape),
      annotations: READS,
      run: async (caller, { signalId, from, to }) => {
        const signal = await signals.requireOwned(caller.accountId, signalId);
        return services.funnel.ofSignal(signal, {
          from: from ? new Date(from) : undefined,
          to: to ? new Date(to) : undefined,
        });
      },
    }),
    defineTool({
      name: 'list_signal_leads',
      twin: 'listSignalLeads',
      description:
        'Reads a signal’s leads, newest first (since: ISO 8601 timestamp; limit 1-100, default 25; offset). Each lead has signal, contact and company blocks. ' +
        'Free: a lead is charged once, when produced, never for reading.',
      input: leadsQuery.extend(signalRef.shape),
      annotations: READS,
      run: async (caller, { signalId, since, limit, offset }) => {
        await signals.requireOwned(caller.accountId, signalId);
        const page = await services.leads.pageJson(signalId, {
          since: since ? new Date(since) : undefined,
          limit,
          offset,
        });
        return new JsonText(page);
      },
    }),
    defineTool({
      name: 'list_watched_companies',
      twin: 'listWatchedCompanies',
      description: 'Lists the companies an account-watchlist signal watches (paged by limit and offset). Free.',
      input: pageQuery.extend(signalRef.shape),
      annotations: READS,
      run: async (caller, { signalId, limit, offset }) => {
        await watchlistOf(caller.accountId, signalId);
        return services.watchlists.list(signalId, { limit, offset });
      },
    }),
    defineTool({
      name: 'add_watched_companies',
      twin: 'addWatchedCompanies',
      description:
        'Adds companies to an account-watchlist signal: names, domains, company page URLs or {name, domain, linkedinUrl} objects. ' +
        'Answers watched (added now), rejected (unusable entries) and alreadyWatched. Adding is free; each lead the watchlist produces costs 3 credits.',
      input: watchedCompaniesBody.extend(signalRef.shape),
      annotations: { ...CHANGES, idempotentHint: true },
      run: async (caller, { signalId, companies }) => {
        await watchlistOf(caller.accountId, signalId);
        return services.watchlists.add(signalId, companies);
      },
    }),
    defineTool({
      name: 'get_credit_balance',
      twin: 'getCreditBalance',
      description: 'Reads the account’s credit balance. Free.',
      input: z.object({}),
      annotations: READS,
      run: async (caller) => ({ balance: await services.credits.balance(caller.accountId) }),
    }),
    defineTool({
      name: 'get_credit_usage',
      twin: 'getCreditUsage',
      description:
        'Lists credit movements, newest first: grants (positive) and charges (negative: lead, email_found, enrichment lookups). ' +
        'Filter by from/to (ISO 8601) and signalId; paged by limit and offset. Free.',
      input: creditUsageQuery,
      annotations: READS,
      run: (caller, { from, to, signalId, limit, offset }) =>
        services.credits.usage(caller.accountId, {
          from: from ? new Date(from) : undefined,
          to: to ? new Date(to) : undefined,
          signalId,
          limit,
          offset,
        }),
    }),
  ];
}
