import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { numericColumn } from '../numeric';

/** One credit movement. The unique idempotency key makes a retried charge a no-op. */
@Entity({ name: 'credit_ledger' })
@Index(['accountId', 'createdAt'])
export class CreditLedgerEntry {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  /** Positive for grants, negative for charges. */
  @Column({ type: 'numeric', precision: 14, scale: 1, transformer: numericColumn })
  credits!: number;

  @Column({ type: 'text' })
  operation!: string;

  @Column({ name: 'signal_id', type: 'uuid', nullable: true })
  signalId!: string | null;

  @Column({ name: 'lead_id', type: 'uuid', nullable: true })
  leadId!: string | null;

  @Index({ unique: true })
  @Column({ name: 'idempotency_key', type: 'text' })
  idempotencyKey!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
