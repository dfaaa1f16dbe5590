import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One entry of an account-watchlist signal; events match it by URL, else domain, else name. */
@Entity({ name: 'watched_companies' })
@Index(['signalId', 'identity'], { unique: true })
export class WatchedCompany {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'signal_id', type: 'uuid' })
  signalId!: string;

  /** A personal profile URL watches one person rather than a company. */
  @Column({ type: 'text', default: 'company' })
  kind!: 'company' | 'person';

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text', nullable: true })
  domain!: string | null;

  @Column({ name: 'linkedin_url', type: 'text', nullable: true })
  linkedinUrl!: string | null;

  /** Lower-case, space-folded name used for matching. */
  @Column({ name: 'name_key', type: 'text', nullable: true })
  nameKey!: string | null;

  /** The strongest identifier (`url:`, `domain:` or `name:`), unique per signal. */
  @Column({ type: 'text' })
  identity!: string;

  @CreateDateColumn({ name: 'added_at', type: 'timestamptz' })
  addedAt!: Date;
}
