import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Stored as the signal's `crmExclusions` setting says (kept here so the entity imports no service). */
export interface CrmExclusions {
  connectionId: string;
  excludeExistingCrmContacts: boolean;
  excludeCrmCompanies: boolean;
}

export const SIGNAL_STATUSES = ['draft', 'active', 'paused'] as const;
export type SignalStatus = (typeof SIGNAL_STATUSES)[number];

@Entity({ name: 'signals' })
@Index(['accountId', 'createdAt'])
export class Signal {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  /** The key that created the signal: its webhook secret signs the deliveries. */
  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId!: string | null;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'signal_type_id', type: 'text' })
  signalTypeId!: string;

  @Column({ type: 'text' })
  status!: SignalStatus;

  @Column({ name: 'webhook_url', type: 'text', nullable: true })
  webhookUrl!: string | null;

  @Column({ type: 'jsonb' })
  config!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  destinations!: Record<string, unknown>;

  /** Exclusions from the customer's CRM (src/services/signals/crm-exclusions.ts); null: none. */
  @Column({ name: 'crm_exclusions', type: 'jsonb', nullable: true })
  crmExclusions!: CrmExclusions | null;

  @Column({ name: 'daily_lead_limit', type: 'integer' })
  dailyLeadLimit!: number;

  @Column({ name: 'duplicate_handling', type: 'text' })
  duplicateHandling!: string;

  /** Leads produced on `leadsDay`; a different day means none yet today. */
  @Column({ name: 'leads_today', type: 'integer', default: 0 })
  leadsToday!: number;

  @Column({ name: 'leads_day', type: 'date', nullable: true })
  leadsDay!: string | null;

  @Column({ name: 'leads_total', type: 'integer', default: 0 })
  leadsTotal!: number;

  @Column({ name: 'last_lead_at', type: 'timestamptz', nullable: true })
  lastLeadAt!: Date | null;

  /** Set while production is stopped for want of credits; drives the CREDITS_EXHAUSTED warning. */
  @Column({ name: 'credits_exhausted_at', type: 'timestamptz', nullable: true })
  creditsExhaustedAt!: Date | null;

  /** The keys of written rows that wake this signal's workflow (docs/decisions/wake-on-arrival.md); null: every arrival. */
  @Column({ name: 'wake_keys', type: 'text', array: true, nullable: true })
  wakeKeys!: string[] | null;

  /** When the first check ran: the watchlist's lookback window is anchored here. */
  @Column({ name: 'first_evaluated_at', type: 'timestamptz', nullable: true })
  firstEvaluatedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /** Deleted signals keep their leads and ledger rows for the account's history, but answer 404. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
