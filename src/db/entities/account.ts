import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { numericColumn } from '../numeric';

@Entity({ name: 'accounts' })
export class Account {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** Kept in the same transaction as every ledger row, so it always equals the ledger's sum. */
  @Column({ name: 'credit_balance', type: 'numeric', precision: 14, scale: 1, default: 0, transformer: numericColumn })
  creditBalance!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
