import type { Services } from '../../../src/services';
import { funnelQuery, leadsQuery } from '../../routes/leads';
import { JsonText } from '../../route';
import { READS, defineTool } from '../tool';
import { signalRef } from './inputs';

export const getSignalFunnelTool = ({ signals, funnel }: Pick<Services, 'signals' | 'funnel'>) =>
  defineTool({
    name: 'get_signal_funnel',
    twin: 'getSignalFunnel',
    description:
      'Shows how many of a signal’s candidates each filter removed over a window of event time (from/to, ISO 8601; default the last 30 days), ' +
      'ending with the leads produced. Use it to see why a signal yields few leads. Free.',
    input: funnelQuery.extend(signalRef.shape),
    annotations: READS,
    run: async (caller, { signalId, from, to }) => {
      const signal = await signals.requireOwned(caller.accountId, signalId);
      return funnel.ofSignal(signal, {
        from: from ? new Date(from) : undefined,
        to: to ? new Date(to) : undefined,
      });
    },
  });

export const listSignalLeadsTool = ({ signals, leads }: Pick<Services, 'signals' | 'leads'>) =>
  defineTool({
    name: 'list_signal_leads',
    twin: 'listSignalLeads',
    description:
      'Reads a signal’s leads, newest first (since: ISO 8601 timestamp; limit 1-100, default 25; offset). Each lead has signal, contact and company blocks. ' +
      'Free: a lead is charged once, when produced, never for reading.',
    input: leadsQuery.extend(signalRef.shape),
    annotations: READS,
    run: async (caller, { signalId, since, limit, offset }) => {
      await signals.requireOwned(caller.accountId, signalId);
      const page = await leads.pageJson(signalId, {
        since: since ? new Date(since) : undefined,
        limit,
        offset,
      });
      return new JsonText(page);
    },
  });
