import { z } from 'zod';
import type { Services } from '../../src/services';
import { INTEGRATION_PROVIDERS, requireSequencerName } from '../../src/services/integrations';
import { authErrors, errorEnvelope } from '../schemas/common';
import { defineRoute } from '../route';

const tags = ['integrations'];

/** Any name: the service tells an OAuth-only tool (400 USE_DASHBOARD_OAUTH) from an unknown one (404). */
const sequencerParam = z.object({
  sequencer: z.string().min(1).max(64).meta({ description: 'lemlist, instantly or smartlead' }),
});

export const connectBody = z
  .strictObject({
    apiKey: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .meta({ description: "The tool's API key; checked with the tool first, then stored encrypted, never returned" }),
    label: z.string().trim().min(1).max(255).optional().meta({
      description:
        'A name for this account of the tool; default: the name the tool gives the account, kept when the same key is sent again without one',
    }),
  })
  .meta({ id: 'ConnectIntegration' });

const connectedSchema = z
  .object({
    provider: z.string(),
    integrationId: z
      .uuid()
      .describe('Names this account in destinations (`integrationId`) when several of one tool are connected'),
    label: z.string(),
    connected: z.literal(true),
    connectedAt: z.string(),
  })
  .meta({ id: 'ConnectedIntegration' });

const overviewSchema = z
  .object({
    integrations: z.array(
      z.object({
        provider: z.enum(INTEGRATION_PROVIDERS as [string, ...string[]]),
        kind: z.enum(['sequencer', 'crm']),
        connected: z.boolean(),
        accounts: z.array(
          z.object({
            integrationId: z.uuid(),
            label: z.string(),
            connectedAt: z.string(),
            status: z
              .enum(['connected', 'broken'])
              .optional()
              .meta({ description: 'CRMs and Google Sheets: broken when the vendor refused a token refresh' }),
            brokenReason: z.string().optional().meta({ description: "The vendor's reason, while broken" }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'IntegrationOverview' });

const campaignsQuery = z.object({
  integrationId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'Which connected account; required when several of this tool are' }),
});

const campaignsSchema = z
  .object({
    items: z.array(
      z.object({ id: z.string(), name: z.string(), status: z.string().describe("The tool's status word, lower case") }),
    ),
  })
  .meta({ id: 'CampaignList' });

const unavailable = {
  502: {
    description: 'The tool did not answer usefully: outage, time-out, rate limit (INTEGRATION_UNAVAILABLE)',
    schema: errorEnvelope,
  },
};

const listIntegrationsRoute = ({ integrations }: Pick<Services, 'integrations'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/integrations',
    operationId: 'listIntegrations',
    summary: 'Every sequencer and CRM with its connected accounts',
    tags,
    access: { kind: 'apiKey', permission: 'read' },
    responses: { 200: { description: 'Connection overview', schema: overviewSchema }, ...authErrors },
    handle: ({ caller }) => integrations.overview(caller.accountId),
  });

const connectSequencerRoute = ({ integrations }: Pick<Services, 'integrations'>) =>
  defineRoute({
    method: 'put',
    path: '/api/v1/integrations/{sequencer}',
    operationId: 'connectSequencer',
    summary:
      'Connect an email-sequencing tool with its API key (checked with the tool, stored encrypted); the same key again updates the label',
    tags,
    access: { kind: 'apiKey', permission: 'write' },
    params: sequencerParam,
    // A CRM answers USE_DASHBOARD_OAUTH whatever body came with it.
    pathCheck: (params) => void requireSequencerName(params.sequencer, 'connect'),
    body: connectBody,
    responses: {
      200: { description: 'Connected', schema: connectedSchema },
      400: {
        description: 'A CRM or spreadsheet tool, which connects by OAuth in the dashboard (USE_DASHBOARD_OAUTH)',
        schema: errorEnvelope,
      },
      404: { description: 'No tool of that name (NOT_FOUND)', schema: errorEnvelope },
      422: {
        description: 'The tool refused the key (VALIDATION_ERROR on `apiKey`), or an invalid body',
        schema: errorEnvelope,
      },
      ...unavailable,
      ...authErrors,
    },
    handle: ({ caller, params, body }) => integrations.connect(caller.accountId, params.sequencer, body),
  });

const listSequencerCampaignsRoute = ({ integrations }: Pick<Services, 'integrations'>) =>
  defineRoute({
    method: 'get',
    path: '/api/v1/integrations/{sequencer}/campaigns',
    operationId: 'listSequencerCampaigns',
    summary: "The connected tool's campaigns, whose ids go in `destinations.<tool>.campaignId`",
    tags,
    access: { kind: 'apiKey', permission: 'read' },
    params: sequencerParam,
    query: campaignsQuery,
    responses: {
      200: { description: 'Campaigns', schema: campaignsSchema },
      400: {
        description: 'Several accounts of the tool are connected and no `integrationId` names one (INVALID_REQUEST)',
        schema: errorEnvelope,
      },
      404: {
        description: 'No such tool, a tool without campaigns, or an `integrationId` not of this account (NOT_FOUND)',
        schema: errorEnvelope,
      },
      409: { description: 'The tool is not connected (INTEGRATION_NOT_CONNECTED)', schema: errorEnvelope },
      ...unavailable,
      ...authErrors,
    },
    handle: ({ caller, params, query }) =>
      integrations.campaigns(caller.accountId, params.sequencer, query.integrationId),
  });

export function integrationRoutes(services: Services) {
  return [listIntegrationsRoute(services), connectSequencerRoute(services), listSequencerCampaignsRoute(services)];
}
