import { z } from 'zod';
import type { SequencerName } from '../../providers/sequencers';
import { fieldsOf, NotSendable, type Destination } from './destination';
import { sequencerLeadFrom } from './route-payloads';

const sequencerSettings = z.strictObject({
  campaignId: z.string().trim().min(1).max(255),
  integrationId: z.string().trim().min(1).max(255).optional(),
});
export type SequencerSettings = z.output<typeof sequencerSettings>;

/**
 * A sequencer destination (lemlist, Instantly, Smartlead): each lead added to a campaign of a
 * connected account, as the nine sequencer variables. The tool's own client is its adapter in
 * src/providers/sequencers, which the integrations API uses too (keys, campaigns).
 */
export function sequencerDestination(tool: SequencerName): Destination<SequencerSettings> {
  return {
    kind: tool,
    settings: sequencerSettings,
    // Stored with the account it resolved to and a campaign that exists there.
    stored: (settings, tools) => tools.resolveSequencerDestination(tool, settings),
    routeOf(stored) {
      const { campaignId, integrationId } = fieldsOf(stored);
      if (typeof campaignId !== 'string' || !campaignId) return null;
      return { target: campaignId, integrationId: typeof integrationId === 'string' ? integrationId : null };
    },
    async push(input, tools) {
      const mapped = sequencerLeadFrom(input.payload, tool);
      if (!mapped.ok) throw new NotSendable(mapped.reason);
      const apiKey = await tools.sequencerApiKey(input.accountId, tool, input.integrationId);
      if (!apiKey) {
        throw new NotSendable(
          `not sent: no connected ${tool} account fits this destination (disconnected, or several connected and none named by integrationId)`,
        );
      }
      await tools.sequencer(tool).addLead(apiKey, input.target, mapped.lead);
    },
  };
}
