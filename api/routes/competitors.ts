import type { Services } from '../../src/services';
import { authErrors, errorEnvelope, pageQuery, uuidParam } from '../schemas/common';
import { competitor, competitorBody, competitorPage, competitorPatch } from '../schemas/competitors';
import { defineRoute } from '../route';

const tags = ['competitors'];
const notFound = { 404: { description: 'No such competitor on the account (NOT_FOUND)', schema: errorEnvelope } };
const invalid = {
  422: { description: 'A field is missing or unusable (VALIDATION_ERROR)', schema: errorEnvelope },
};
const taken = {
  409: {
    description:
      'The account lists a competitor at that domain already (COMPETITOR_EXISTS), or lists as many as it may (COMPETITOR_LIMIT_REACHED)',
    schema: errorEnvelope,
  },
};

const listCompetitorsRoute = ({ competitors }: Pick<Services, 'competitors'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/competitors',
    operationId: 'listCompetitors',
    summary: "The account's competitors, newest first: their social audience feeds the watchlists' competitor events",
    tags,
    access: { kind: 'apiKey', permission: 'read' },
    query: pageQuery,
    responses: { 200: { description: 'Competitors', schema: competitorPage }, ...authErrors },
    handle: ({ caller, query }) => competitors.list(caller.accountId, query),
  });

const createCompetitorRoute = ({ competitors }: Pick<Services, 'competitors'>) =>
  defineRoute({
    method: 'post',
    path: '/api/v1/competitors',
    operationId: 'createCompetitor',
    summary: 'Add a competitor: name, domain and optionally its Bluesky handles',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    body: competitorBody,
    responses: {
      201: { description: 'Created', schema: competitor },
      ...taken,
      ...invalid,
      ...authErrors,
    },
    handle: ({ caller, body }) => competitors.create(caller.accountId, body),
  });

const getCompetitorRoute = ({ competitors }: Pick<Services, 'competitors'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/competitors/{competitorId}',
    operationId: 'getCompetitor',
    summary: 'One competitor',
    tags,
    access: { kind: 'apiKey', permission: 'read' },
    params: uuidParam('competitorId'),
    responses: { 200: { description: 'Competitor', schema: competitor }, ...notFound, ...authErrors },
    handle: ({ caller, params }) => competitors.get(caller.accountId, params.competitorId),
  });

const updateCompetitorRoute = ({ competitors }: Pick<Services, 'competitors'>) =>
  defineRoute({
    method: 'patch',
    path: '/api/v1/competitors/{competitorId}',
    operationId: 'updateCompetitor',
    summary: 'Change a competitor: name, domain or handles (a list sent replaces the list)',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    params: uuidParam('competitorId'),
    body: competitorPatch,
    responses: {
      200: { description: 'Changed', schema: competitor },
      ...taken,
      ...invalid,
      ...notFound,
      ...authErrors,
    },
    handle: ({ caller, params, body }) => competitors.update(caller.accountId, params.competitorId, body),
  });

const deleteCompetitorRoute = ({ competitors }: Pick<Services, 'competitors'>) =>
  defineRoute({
    method: 'delete',
    path: '/api/v1/competitors/{competitorId}',
    operationId: 'deleteCompetitor',
    summary: 'Remove a competitor; its events stop reaching the watchlists from the next evaluation',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    params: uuidParam('competitorId'),
    responses: { 204: { description: 'Removed' }, ...notFound, ...authErrors },
    handle: async ({ caller, params }) => {
      await competitors.remove(caller.accountId, params.competitorId);
    },
  });

export function competitorRoutes(services: Services) {
  return [
    listCompetitorsRoute(services),
    createCompetitorRoute(services),
    getCompetitorRoute(services),
    updateCompetitorRoute(services),
    deleteCompetitorRoute(services),
  ];
}
