import type { DataSource, EntityManager } from 'typeorm';
import { rows } from '../../db/sql';
import { Signal, type SignalStatus } from '../../db/entities/signal';
import { AppError, conflict, fieldProblemsOf, notFound, validationError } from '../../errors';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { validateLocations } from '../../catalogue/locations';
import type { ApiKeys, Caller } from '../api-keys';
import type { Credits } from '../credits';
import { crmProviderOf, type CrmConnections } from '../crm/connections';
import { assertWebhookTarget } from '../../destinations/webhook/webhook-targets';
import { companyEntries, type CompanyEntry } from '../../signal-types/kit/config';
import { assertActivatable } from './activation';
import { mergeConfig } from './config-merge';
import {
  assertDeliverable,
  mergeDestinations,
  storedDestinations,
  type DestinationsPatch,
} from '../../destinations/settings';
import type { SecretBox } from '../../crypto/secret-box';
import type { Integrations } from '../integrations';
import type { SignalLifecycle } from './lifecycle';
import { signalResource, type SignalResource } from './resource';
import type { SignalWarning } from '../../signal-types/kit/settings-warnings';
import { signalType, type SignalType, type SignalTypeId } from '../../signal-types/registry';
import type { ImportResult, Watchlists } from './watchlists';
import type { CrmSyncSchedules } from '../crm/sync-schedules';
import { assertCrmExclusions, crmExclusionWarnings, type CrmExclusionsSetting } from './crm-exclusions';

export interface CreateSignalInput {
  name: string;
  config: Record<string, unknown>;
  webhookUrl?: string | null;
  dailyLeadLimit: number;
  duplicateHandling?: string;
  status: SignalStatus;
}

export interface UpdateSignalInput {
  name?: string;
  status?: SignalStatus;
  config?: Record<string, unknown>;
  webhookUrl?: string | null;
  destinations?: DestinationsPatch;
  crmExclusions?: CrmExclusionsSetting;
  dailyLeadLimit?: number;
  duplicateHandling?: string;
}

export interface SignalListFilter {
  status?: SignalStatus;
  signalTypeId?: string;
  createdByThisKey?: boolean;
  limit: number;
  offset: number;
}

/** What Signals uses of the rest of the service, each as narrow as its use. */
export interface SignalCollaborators {
  config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'>;
  clock: Clock;
  watchlists: Pick<Watchlists, 'import' | 'count'>;
  crmConnections: Pick<CrmConnections, 'resolveDestination' | 'list'>;
  /** A connection a signal excludes from gets its sync schedule. */
  crmSyncSchedules: Pick<CrmSyncSchedules, 'ensure'>;
  integrations: Pick<Integrations, 'resolveSequencerDestination'>;
  /** The balance an activation needs, read inside its transaction. */
  credits: Pick<Credits, 'balanceIn'>;
  /** Told after PostgreSQL changed. */
  lifecycle: SignalLifecycle;
  /** An assistant's signal is signed with the account's newest live key. */
  apiKeys: Pick<ApiKeys, 'newestLive'>;
  /** Seals a Slack destination's webhook URL. */
  secrets: Pick<SecretBox, 'seal'>;
}

/** A change Temporal has not confirmed yet joins the resource's warnings (never an error). */
function withWarning(resource: SignalResource, pending: SignalWarning | undefined): SignalResource {
  return pending ? { ...resource, warnings: [...resource.warnings, pending] } : resource;
}

const INVALID_LOCATION_HINT = 'Check names first with GET /api/v1/enrichment/validate-location';

/** Signals as resources: every REST call and tool on signals goes through here. */
export class Signals {
  constructor(
    private readonly db: DataSource,
    private readonly deps: SignalCollaborators,
  ) {}

  /**
   * Deliveries are signed with the webhook secret of the key that created the signal; a signal
   * an assistant creates over OAuth is signed by the account's newest live key.
   */
  private async signingKeyOf(caller: Caller): Promise<string> {
    if (!caller.assistant) return caller.keyId;
    const keyId = await this.deps.apiKeys.newestLive(caller.accountId);
    if (!keyId)
      throw conflict(
        'API_KEY_REQUIRED',
        "A signal's webhooks are signed with an API key's webhook secret, and this account has none: create an API key in the dashboard first",
      );
    return keyId;
  }

  async create(caller: Caller, typeId: SignalTypeId, input: CreateSignalInput): Promise<SignalResource> {
    const draft = checkedDraft(typeId, input);
    if (input.webhookUrl) await assertWebhookTarget(input.webhookUrl, this.deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
    const signingKeyId = await this.signingKeyOf(caller);

    const { signal, imported } = await this.db.transaction(async (tx) => {
      const { signal, imported } = await this.insertDraft(tx, caller.accountId, draft, signingKeyId);
      if (input.status === 'active') {
        const watched = draft.type.watchesCompanies ? await this.deps.watchlists.count(signal.id, tx) : 0;
        assertActivatable(signal, watched, await this.deps.credits.balanceIn(tx, caller.accountId));
      }
      return { signal, imported };
    });
    const pending = signal.status !== 'draft' ? await this.deps.lifecycle.statusChanged(signal, null) : undefined;
    return withWarning(signalResource(signal, this.deps.clock, imported), pending);
  }

  /**
   * The rows a create request writes (the signal and its watchlist), inside `tx`: create commits
   * them, a cost preview rolls them back.
   */
  async insertDraft(
    tx: EntityManager,
    accountId: string,
    draft: SignalDraft,
    signingKeyId: string | null,
  ): Promise<{ signal: Signal; imported?: ImportResult }> {
    const { type, input } = draft;
    const signal = await tx.getRepository(Signal).save({
      accountId,
      apiKeyId: signingKeyId,
      name: input.name,
      signalTypeId: type.signalTypeId,
      status: input.status,
      webhookUrl: input.webhookUrl ?? null,
      config: draft.storedConfig,
      wakeKeys: wakeKeysOf(type, draft.storedConfig),
      destinations: {},
      dailyLeadLimit: input.dailyLeadLimit,
      duplicateHandling: input.duplicateHandling ?? type.defaultDuplicateHandling,
    });
    const imported = type.watchesCompanies
      ? await this.deps.watchlists.import(tx, signal.id, draft.companies)
      : undefined;
    return { signal, imported };
  }

  /** The signal of this account, or 404 for unknown ids, deleted signals and other accounts' signals alike. */
  async requireOwned(accountId: string, signalId: string, tx: EntityManager = this.db.manager): Promise<Signal> {
    const signal = await tx.getRepository(Signal).findOneBy({ id: signalId, accountId });
    if (!signal || signal.deletedAt) throw notFound('Signal');
    return signal;
  }

  async get(accountId: string, signalId: string): Promise<SignalResource> {
    return this.withCrmWarnings(signalResource(await this.requireOwned(accountId, signalId), this.deps.clock));
  }

  /** The CRM exclusions' state is read, not stored with the signal, so it joins the warnings here. */
  private async withCrmWarnings(resource: SignalResource): Promise<SignalResource> {
    const extra = await crmExclusionWarnings(this.db, resource.crmExclusions ?? null);
    return extra.length ? { ...resource, warnings: [...resource.warnings, ...extra] } : resource;
  }

  async list(caller: Caller, filter: SignalListFilter) {
    const where = ['account_id = $1', 'deleted_at IS NULL'];
    const args: unknown[] = [caller.accountId];
    if (filter.status) where.push(`status = $${args.push(filter.status)}`);
    if (filter.signalTypeId) where.push(`signal_type_id = $${args.push(filter.signalTypeId)}`);
    if (filter.createdByThisKey) where.push(`api_key_id = $${args.push(caller.keyId)}`);
    const repo = this.db.getRepository(Signal);
    const [{ total }] = await rows<{ total: number }>(
      this.db,
      `SELECT count(*)::int AS total FROM signals WHERE ${where.join(' AND ')}`,
      args,
    );
    const ids = await rows<{ id: string }>(
      this.db,
      `SELECT id FROM signals WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC
       LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, filter.limit, filter.offset],
    );
    const found = ids.length ? await repo.findBy(ids.map(({ id }) => ({ id }))) : [];
    const byId = new Map(found.map((row) => [row.id, row]));
    const signals = ids.map(({ id }) => signalResource(byId.get(id) as Signal, this.deps.clock));
    return {
      signals,
      total,
      limit: filter.limit,
      offset: filter.offset,
      hasMore: filter.offset + signals.length < total,
    };
  }

  async update(caller: Caller, signalId: string, input: UpdateSignalInput): Promise<SignalResource> {
    const current = await this.requireOwned(caller.accountId, signalId);
    const type = signalType(current.signalTypeId);
    const { companies, ...configPatch } = (input.config ?? {}) as { companies?: CompanyEntry[] } & Record<
      string,
      unknown
    >;
    if (companies !== undefined && !type.watchesCompanies) {
      throw validationError([{ field: 'config.companies', message: `"companies" is not a known field here` }]);
    }
    const companiesParsed = companyEntries.optional().safeParse(companies);
    if (!companiesParsed.success) throw validationError(fieldProblemsOf(companiesParsed.error, 'config.companies'));
    const parsed = type.configSchema.safeParse(mergeConfig(current.config, configPatch));
    if (!parsed.success) throw validationError(fieldProblemsOf(parsed.error, 'config'));
    // Stored as creation stores it: normalised by the schema (trimmed titles), and a removed
    // watchlist setting falls back to its default rather than vanishing from `config`.
    const config = storedConfigOf(type, parsed.data);
    if (configPatch.locations !== undefined || configPatch.jobLocations !== undefined) assertLocations(config);
    if (input.webhookUrl) await assertWebhookTarget(input.webhookUrl, this.deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
    const destinations = input.destinations
      ? await this.assertDestinationsConnected(caller.accountId, input.destinations)
      : undefined;
    if (input.crmExclusions) await assertCrmExclusions(this.deps.crmConnections, caller.accountId, input.crmExclusions);

    const { signal, imported, previous } = await this.db.transaction(async (tx) => {
      const locked = await tx
        .getRepository(Signal)
        .findOne({ where: { id: signalId }, lock: { mode: 'pessimistic_write' } });
      if (!locked || locked.deletedAt) throw notFound('Signal');
      const previous = locked.status;
      const mergedDestinations = destinations ? mergeDestinations(locked.destinations, destinations) : undefined;
      if (mergedDestinations) assertDeliverable(mergedDestinations);
      const imported = companies?.length ? await this.deps.watchlists.import(tx, signalId, companies) : undefined;
      const next: Partial<Signal> = {
        config,
        wakeKeys: wakeKeysOf(type, config),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.webhookUrl !== undefined ? { webhookUrl: input.webhookUrl } : {}),
        ...(mergedDestinations ? { destinations: mergedDestinations } : {}),
        ...(input.crmExclusions !== undefined ? { crmExclusions: input.crmExclusions } : {}),
        ...(input.dailyLeadLimit !== undefined ? { dailyLeadLimit: input.dailyLeadLimit } : {}),
        ...(input.duplicateHandling !== undefined ? { duplicateHandling: input.duplicateHandling } : {}),
      };
      if (next.status === 'active' && previous !== 'active') {
        const watched = type.watchesCompanies ? await this.deps.watchlists.count(signalId, tx) : 0;
        assertActivatable(
          { signalTypeId: locked.signalTypeId, config },
          watched,
          await this.deps.credits.balanceIn(tx, caller.accountId),
        );
      }
      const signal = await tx.getRepository(Signal).save(tx.getRepository(Signal).merge(locked, next));
      return { signal, imported, previous };
    });
    const pending =
      signal.status !== previous
        ? await this.deps.lifecycle.statusChanged(signal, previous)
        : signal.status !== 'draft'
          ? await this.deps.lifecycle.configChanged(signal)
          : undefined;
    if (input.crmExclusions)
      await this.deps.crmSyncSchedules.ensure(caller.accountId, input.crmExclusions.connectionId);
    return withWarning(await this.withCrmWarnings(signalResource(signal, this.deps.clock, imported)), pending);
  }

  async setStatus(caller: Caller, signalId: string, status: SignalStatus): Promise<SignalResource> {
    return this.update(caller, signalId, { status });
  }

  /** Answers the warning when the signal's workflow could not be told yet (the deletion stands). */
  async delete(accountId: string, signalId: string): Promise<{ warnings: SignalWarning[] }> {
    const signal = await this.requireOwned(accountId, signalId);
    const deletedAt = this.deps.clock.now();
    await this.db.getRepository(Signal).update({ id: signalId }, { deletedAt });
    const pending = await this.deps.lifecycle.deleted({ ...signal, deletedAt });
    return { warnings: pending ? [pending] : [] };
  }

  /**
   * Each destination sent, as it is stored: enabling a CRM or Sheets destination needs a
   * connection made in the dashboard, a sequencer one a connected account of the tool and a
   * campaign that exists there (each stored with what it resolved to); secrets are sealed.
   */
  private async assertDestinationsConnected(
    accountId: string,
    destinations: DestinationsPatch,
  ): Promise<DestinationsPatch> {
    const { crmConnections, integrations, secrets } = this.deps;
    return storedDestinations(destinations, {
      accountId,
      seal: (text) => secrets.seal(text),
      resolveCrmConnection: (provider, integrationId, field) =>
        crmConnections.resolveDestination(accountId, crmProviderOf(provider), integrationId, field),
      resolveSequencerDestination: (tool, destination) =>
        integrations.resolveSequencerDestination(accountId, tool, destination),
    });
  }
}

const storedConfigOf = (type: SignalType, config: Record<string, unknown>) => type.storedConfig?.(config) ?? config;

/** The stored config's wake keys (docs/decisions/wake-on-arrival.md); null, every arrival, when the type cannot say. */
export function wakeKeysOf(type: SignalType, config: Record<string, unknown>): string[] | null {
  const keys = type.wakeKeys?.(config);
  return keys ? [...new Set(keys)].sort() : null;
}

/** A create request checked as create checks it before writing anything. */
export interface SignalDraft {
  type: SignalType;
  input: CreateSignalInput;
  storedConfig: Record<string, unknown>;
  companies: CompanyEntry[];
}

export function checkedDraft(typeId: SignalTypeId, input: CreateSignalInput): SignalDraft {
  const type = signalType(typeId);
  const { companies, ...config } = input.config as { companies?: CompanyEntry[] } & Record<string, unknown>;
  const storedConfig = storedConfigOf(type, config);
  assertLocations(storedConfig);
  return { type, input, storedConfig, companies: companies ?? [] };
}

/** Every place filter of a config (`locations`, and a hiring signal's `jobLocations`) must be a known place. */
function assertLocations(config: Record<string, unknown>): void {
  const locations = [
    ...((config.locations as string[] | undefined) ?? []),
    ...((config.jobLocations as string[] | undefined) ?? []),
  ];
  if (locations.length === 0) return;
  const { invalid } = validateLocations(locations);
  if (invalid.length > 0) {
    throw new AppError(
      400,
      'INVALID_LOCATION',
      `Unrecognised locations: ${invalid.map((i) => i.input).join(', ')}. ${INVALID_LOCATION_HINT}`,
      {
        invalid_locations: invalid.map((i) => i.input),
        suggestions: Object.fromEntries(invalid.map((i) => [i.input, i.suggestions])),
      },
    );
  }
}

export type { ImportResult };
