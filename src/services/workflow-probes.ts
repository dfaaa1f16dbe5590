import { DataSource } from 'typeorm';

/** Rows written by the wiring-check workflow; each step is idempotent per (probe, step). */
export class WorkflowProbes {
  constructor(private readonly db: DataSource) {}

  async recordStep(probeId: string, step: number): Promise<number> {
    const rows = await this.db.query(
      `INSERT INTO workflow_probes (id, steps) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET steps = GREATEST(workflow_probes.steps, EXCLUDED.steps)
       RETURNING steps`,
      [probeId, step],
    );
    return rows[0].steps;
  }

  async steps(probeId: string): Promise<number> {
    const rows = await this.db.query(`SELECT steps FROM workflow_probes WHERE id = $1`, [probeId]);
    return rows[0]?.steps ?? 0;
  }
}
