import { z } from 'zod';
import { register } from '../../src/destinations/registry';
import { fieldsOf, type Destination } from '../../src/destinations/kit/destination';
import { OutboundHttpError } from '../../src/providers/outbound-error';

/**
 * A throwaway destination, the whole of it in this one module: a team's inbox that takes each
 * lead as a small JSON post. Registering it is the one line a production destination has in
 * src/destinations/registry.ts; it must run before the API modules load (they build the
 * `destinations` schema), so the test imports this module first.
 */
export const teamInbox: Destination<{ enabled: boolean; inboxUrl: string }> = {
  kind: 'team-inbox',
  settings: z.strictObject({ enabled: z.boolean(), inboxUrl: z.url({ protocol: /^https?$/ }) }),
  routeOf(stored) {
    const { enabled, inboxUrl } = fieldsOf(stored);
    return enabled === true && typeof inboxUrl === 'string' ? { target: inboxUrl, integrationId: null } : null;
  },
  async push(input) {
    const lead = JSON.parse(input.payload) as { company?: { name?: string } };
    const answer = await fetch(input.target, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ leadId: input.leadId, signalId: input.signalId, company: lead.company?.name ?? null }),
    });
    if (!answer.ok) {
      throw new OutboundHttpError(`the team inbox answered ${answer.status}`, {
        vendor: 'team-inbox',
        status: answer.status,
        permanent: answer.status < 500,
      });
    }
  },
};

register(teamInbox);
