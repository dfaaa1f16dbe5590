import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const PERMISSIONS = ['read', 'write', 'enrich'] as const;
export type Permission = (typeof PERMISSIONS)[number];

@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index()
  @Column({ name: 'account_id', type: 'uuid' })
  accountId!: string;

  @Column({ type: 'text', default: '' })
  name!: string;

  /** SHA-256 of the key: the key itself is shown once and never stored. */
  @Index({ unique: true })
  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  /** First characters of the key, so an operator can tell keys apart without seeing them. */
  @Column({ name: 'key_prefix', type: 'text' })
  keyPrefix!: string;

  @Column({ type: 'text', array: true })
  permissions!: Permission[];

  @Column({ name: 'webhook_secret_encrypted', type: 'text' })
  webhookSecretEncrypted!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
