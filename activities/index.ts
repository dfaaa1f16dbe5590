import { Services } from '../src/services';

/**
 * Activities are thin: each calls one service function. Built with the process's services so
 * that workflow code only ever sees their types.
 */
export function createActivities(services: Services) {
  return {
    async recordProbeStep(probeId: string, step: number): Promise<number> {
      return services.workflowProbes.recordStep(probeId, step);
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
