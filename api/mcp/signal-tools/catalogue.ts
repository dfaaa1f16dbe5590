import { listPersonas } from '../../../src/catalogue/personas';
import { listIndustries } from '../../../src/catalogue/industries';
import { listTechnographicTools } from '../../../src/catalogue/technographics';
import { signalTypeCatalogue } from '../../../src/signal-types/catalogue';
import { SIGNAL_TYPE_IDS } from '../../../src/signal-types/registry';
import { z } from 'zod';
import { READS, defineTool } from '../tool';
import { search } from './inputs';

export const listSignalTypesTool = defineTool({
  name: 'list_signal_types',
  twin: 'listSignalTypes',
  description: `Lists the signal types (${SIGNAL_TYPE_IDS.join(', ')}) with their config parameters, pricing (credits per lead) and the fields each lead carries. Free.`,
  input: z.object({}),
  annotations: READS,
  run: () => ({ signalTypes: signalTypeCatalogue() }),
});

export const listPersonasTool = defineTool({
  name: 'list_personas',
  twin: 'listPersonas',
  description:
    'Lists buyer personas (e.g. Chief Technology Officer). Each `name` is what create_signal accepts in jobTitles (job changes) and targetPersonas (account watchlist, fundraising, hiring). Free.',
  input: search,
  annotations: READS,
  run: (_caller, { search: text }) => {
    // Same matching as GET /api/v1/personas: persona name or any of its titles.
    const needle = text?.toLowerCase();
    const personas = listPersonas().filter(
      (p) => !needle || p.name.toLowerCase().includes(needle) || p.titles.some((t) => t.toLowerCase().includes(needle)),
    );
    return { personas };
  },
});

export const listIndustriesTool = defineTool({
  name: 'list_industries',
  twin: 'listIndustries',
  description:
    'Lists industries with their category. Names are used verbatim in the industryFilters of job-changes, fundraising and hiring signals (matching is exact; a category name covers all its industries). Free.',
  input: search,
  annotations: READS,
  run: (_caller, { search: text }) => ({ industries: listIndustries(text) }),
});

export const listTechnographicToolsTool = defineTool({
  name: 'list_technographic_tools',
  twin: 'listTechnographicTools',
  description: 'Lists technologies companies are known to use (name and category), for company searches. Free.',
  input: search,
  annotations: READS,
  run: (_caller, { search: text }) => ({ tools: listTechnographicTools(text) }),
});
