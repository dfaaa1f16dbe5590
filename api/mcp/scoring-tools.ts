import { z } from 'zod';
import type { Services } from '../../src/services';
import { companyIdParam, scoringModelBody } from '../schemas/scoring';
import { CHANGES, READS, defineTool, type AnyToolDef } from './tool';

/** The account score and lead evidence for assistants: the same service calls as their REST twins. */
export function scoringTools(services: Pick<Services, 'accountScores' | 'leadEvidence'>): AnyToolDef[] {
  return [
    defineTool({
      name: 'get_scoring_model',
      twin: 'getScoringModel',
      description:
        "Reads the account's scoring model: per event type its points, half-life (days) and ceiling; `source` says whether it is the defaults. Free.",
      input: z.object({}),
      annotations: READS,
      run: (caller) => services.accountScores.model(caller.accountId),
    }),
    defineTool({
      name: 'set_scoring_model',
      twin: 'setScoringModel',
      description:
        'Replaces the account’s scoring model: {eventTypes: {<event type>: {points 0–100, halfLifeDays 1–3650, ceiling 0–100}}}; ' +
        'a type left out scores nothing. The account_score signals then read their window again. Free.',
      input: z.object({ model: scoringModelBody }),
      annotations: { ...CHANGES, idempotentHint: true },
      run: (caller, { model }) => services.accountScores.setModel(caller.accountId, model),
    }),
    defineTool({
      name: 'get_company_score',
      twin: 'getCompanyScore',
      description:
        "A company's account score (0–100) now by the account's model, its grade (A–D) and each event's type, date, weight, decay and contribution. Free.",
      input: companyIdParam,
      annotations: READS,
      run: (caller, { companyId }) => services.accountScores.companyScore(caller.accountId, companyId),
    }),
    defineTool({
      name: 'get_lead',
      twin: 'getLead',
      description:
        'One lead as delivered plus its evidence: the event(s) that made it (type, date, source, record URL, when read), the signal’s conditions it met and, for account_score leads, the score’s breakdown. Free.',
      input: z.object({ leadId: z.uuid() }),
      annotations: READS,
      run: (caller, { leadId }) => services.leadEvidence.ofLead(caller.accountId, leadId),
    }),
  ];
}
