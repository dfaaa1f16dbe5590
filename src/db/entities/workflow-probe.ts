import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Written by the readiness round trip: a workflow's activity inserts a row, which proves
 * worker, Temporal and PostgreSQL are wired together end to end.
 */
@Entity({ name: 'workflow_probes' })
export class WorkflowProbe {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'integer', default: 0 })
  steps!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
