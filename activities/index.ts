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
    async produceLeads(signalId: string) {
      return services.leadProduction.produceBatch(signalId);
    },
    async markLeadsHandedOff(leadIds: string[]): Promise<void> {
      await services.leadProduction.markHandedOff(leadIds);
    },
    async findLeadEmail(leadId: string) {
      return services.leads.findEmail(leadId);
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
