import type { Services } from '../../src/services';
import { authErrors, errorEnvelope, uuidParam } from '../schemas/common';
import {
  companyIdParam,
  companyScoreAnswer,
  leadWithEvidence,
  scoringModelAnswer,
  scoringModelBody,
} from '../schemas/scoring';
import { defineRoute } from '../route';

const getScoringModelRoute = ({ accountScores }: Pick<Services, 'accountScores'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/scoring-model',
    operationId: 'getScoringModel',
    summary: "The account's scoring model (the defaults until it stores its own); free",
    tags: ['scoring'],
    access: { kind: 'apiKey', permission: 'read' },
    responses: { 200: { description: 'The model', schema: scoringModelAnswer }, ...authErrors },
    handle: ({ caller }) => accountScores.model(caller.accountId),
  });

const setScoringModelRoute = ({ accountScores }: Pick<Services, 'accountScores'>) =>
  defineRoute({
    method: 'put',
    path: '/api/v1/scoring-model',
    operationId: 'setScoringModel',
    summary: "Replaces the account's scoring model; its account_score signals read their window again; free",
    tags: ['scoring'],
    access: { kind: 'apiKey', permission: 'write' },
    body: scoringModelBody,
    responses: {
      200: { description: 'The stored model', schema: scoringModelAnswer },
      422: { description: 'Invalid model (VALIDATION_ERROR), naming each field', schema: errorEnvelope },
      ...authErrors,
    },
    handle: ({ caller, body }) => accountScores.setModel(caller.accountId, body),
  });

const getCompanyScoreRoute = ({ accountScores }: Pick<Services, 'accountScores'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/companies/{companyId}/score',
    operationId: 'getCompanyScore',
    summary: "A company's account score now, its grade and each event's part in it; free",
    tags: ['scoring'],
    access: { kind: 'apiKey', permission: 'read' },
    params: companyIdParam,
    responses: {
      200: { description: 'The score and its breakdown', schema: companyScoreAnswer },
      404: { description: 'Unknown company (NOT_FOUND)', schema: errorEnvelope },
      ...authErrors,
    },
    handle: ({ caller, params }) => accountScores.companyScore(caller.accountId, params.companyId),
  });

const getLeadRoute = ({ leadEvidence }: Pick<Services, 'leadEvidence'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/leads/{leadId}',
    operationId: 'getLead',
    summary: 'One lead as delivered, with its evidence: the events that made it, the conditions it met, its score',
    tags: ['leads'],
    access: { kind: 'apiKey', permission: 'read' },
    params: uuidParam('leadId'),
    responses: {
      200: { description: 'The lead and its evidence', schema: leadWithEvidence },
      404: { description: 'Unknown lead, or one of another account (NOT_FOUND)', schema: errorEnvelope },
      ...authErrors,
    },
    handle: ({ caller, params }) => leadEvidence.ofLead(caller.accountId, params.leadId),
  });

/** The account score (its model, a company's score) and why each lead was made (issue 35). */
export function scoringRoutes(services: Services) {
  return [
    getScoringModelRoute(services),
    setScoringModelRoute(services),
    getCompanyScoreRoute(services),
    getLeadRoute(services),
  ];
}
