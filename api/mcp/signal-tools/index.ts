import type { Services } from '../../../src/services';
import type { AnyToolDef } from '../tool';
import { listIndustriesTool, listPersonasTool, listSignalTypesTool, listTechnographicToolsTool } from './catalogue';
import {
  createSignalTool,
  deleteSignalTool,
  getSignalTool,
  listSignalsTool,
  pauseSignalTool,
  previewSignalTool,
  resumeSignalTool,
  updateSignalTool,
} from './signals';
import { getSignalFunnelTool, listSignalLeadsTool } from './leads';
import { addWatchedCompaniesTool, listWatchedCompaniesTool } from './watchlists';
import { getCreditBalanceTool, getCreditUsageTool } from './credits';

/** The catalogue, signal, lead, funnel, watchlist and credit tools, in the specification's order: each calls what its REST twin calls. */
export function signalTools(services: Services): AnyToolDef[] {
  return [
    listSignalTypesTool,
    listPersonasTool,
    listIndustriesTool,
    listTechnographicToolsTool,
    listSignalsTool(services),
    getSignalTool(services),
    createSignalTool(services),
    previewSignalTool(services),
    updateSignalTool(services),
    pauseSignalTool(services),
    resumeSignalTool(services),
    deleteSignalTool(services),
    getSignalFunnelTool(services),
    listSignalLeadsTool(services),
    listWatchedCompaniesTool(services),
    addWatchedCompaniesTool(services),
    getCreditBalanceTool(services),
    getCreditUsageTool(services),
  ];
}
