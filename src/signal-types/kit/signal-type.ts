import type { z } from 'zod';
import type { Signal } from '../../db/entities/signal';
import type { Candidate } from './candidate';
import type { EvaluationPlan, ReadColumns } from './evaluation-rules';
import type { SettingsReview } from './settings-warnings';
import type { DashboardForm } from './dashboard-form';
import type { WakeKey } from './wake-keys';

/** A field the signal needs before it may be active, as the 400 MISSING_REQUIRED_FIELDS names it. */
export interface MissingField {
  field: string;
  label: string;
}

/**
 * Everything that makes one signal type: what the catalogue (GET /api/v1/signal-types) says,
 * its config, its price, how it is evaluated and how its leads read. The REST create route,
 * the tool server's create_signal, the OpenAPI document and the dashboard are built from this.
 * `Config` is the stored config (after `storedConfig`); hooks take it as stored.
 */
export interface SignalType<Config = Record<string, unknown>> {
  signalTypeId: string;
  name: string;
  description: string;
  /** The create route is `POST /api/v1/signals/<createPath>` (kebab-case of the id). */
  createPath: string;
  /** PascalCase name: operation `create<X>Signal`, request body component `Create<X>Signal`. */
  operationName: string;
  /** The create route's OpenAPI summary; `price` is the type's price in words. */
  createSummary(price: string): string;
  /** What create_signal's `config` takes for this type, in a sentence for assistants. */
  toolConfigHint: string;
  configSchema: z.ZodObject;
  pricingModel: string;
  creditsPerLead: number;
  /** Charged on top of the lead when `getEmails` finds an email; 0 where the lead's price covers it. */
  creditsPerEmailFound: number;
  /** `refuse`, `allow` or `<X>d`. */
  defaultDuplicateHandling: string;
  /** The lead's `signal` block beyond the common fields. */
  leadFields: readonly string[];
  /** The lead's `last_signal`: the label of the event that fired. */
  lastSignalLabel(candidate: Candidate): string;
  /** Lead `signal` values that are not the event's data as it is stored. */
  leadValues?(candidate: Candidate): Record<string, unknown>;
  /** The account watchlist: the config's `companies` are imported into watched companies, never stored. */
  watchesCompanies?: boolean;
  /** The config as stored, with the type's defaults filled in (creation and every update). */
  storedConfig?(config: Record<string, unknown>): Record<string, unknown>;
  /** Fields missing before the signal may be active; `watchedCount` counts a watchlist's companies. */
  missingForActivation(config: Config, watchedCount: number): MissingField[];
  /** Settings that run differently from what is stored: `applied` values and warnings. */
  reviewSettings(config: Config, review: SettingsReview): void;
  evaluationPlan(signal: Signal, now: Date): EvaluationPlan;
  /** Every company and person column its evaluation plan reads, whatever the config: the change trigger must watch each. */
  reads: ReadColumns;
  /**
   * Which written rows may concern a signal of this config (./wake-keys.ts): it is woken when
   * one arrives. Must cover every row its plan reads; null or absent wakes it on every arrival.
   */
  wakeKeys?(config: Config): readonly WakeKey[] | null;
  /** The made-up event a test send (POST .../test-webhook) carries, every field of the type's block filled. */
  testSendSample: Pick<Candidate, 'event_type' | 'data'> & { matched_keywords?: string };
  /** The dashboard's create and edit form; a type without one is created and edited through the API. */
  dashboardForm?: DashboardForm;
}

/** Keeps a type module's hooks typed with its own config. */
export function defineSignalType<Config>(type: SignalType<Config>): SignalType {
  return type as unknown as SignalType;
}
