import { z } from 'zod';
import { PERMISSIONS } from '../../src/db/entities/api-key';
import { CRM_PROVIDERS } from '../../src/services/crm/connections';
import type { Services } from '../../src/services';
import { MEMBER_ROLES } from '../../src/services/members';
import { errorEnvelope, uuidParam } from '../schemas/common';
import { defineRoute } from '../route';
import { siteOrigin } from '../context';

const admin = { kind: 'admin' } as const;
const tags = ['operator'];
const adminErrors = {
  401: { description: 'Missing or wrong admin token', schema: errorEnvelope },
  404: { description: 'Unknown account or key', schema: errorEnvelope },
  422: { description: 'Invalid body', schema: errorEnvelope },
};

/** Credits move in halves (0.5 per found email), so grants are multiples of 0.5. */
const inHalves = (n: number) => Number.isInteger(n * 2);
const creditAmount = z.number().positive().max(1_000_000_000).refine(inHalves, 'must be a multiple of 0.5');
/** A new account may start empty (contract: `{name, credits?}`): 0 is a starting balance, not a grant. */
const startingCredits = z.number().min(0).max(1_000_000_000).refine(inHalves, 'must be a multiple of 0.5');

export const createAccountBody = z.strictObject({
  name: z.string().trim().min(1).max(255),
  credits: startingCredits.optional(),
  ownerInvite: z
    .boolean()
    .optional()
    .meta({ description: 'Also answer an invite link for the first person, who becomes the owner' }),
});
const inviteSchema = z.object({
  url: z.string().meta({
    description: 'Single-use dashboard link, valid 7 days; whoever opens it chooses their email and password',
  }),
  expiresAt: z.string(),
});
export const addCreditsBody = z.strictObject({ amount: creditAmount });
export const createApiKeyBody = z.strictObject({
  name: z.string().max(255).optional(),
  permissions: z.array(z.enum(PERMISSIONS)).min(1).optional(),
});
export const crmConnectionBody = z.strictObject({
  provider: z.enum(CRM_PROVIDERS),
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  /** Salesforce `instance_url` or Pipedrive `api_domain` from the token answer. */
  apiBaseUrl: z.url().optional(),
});

/** An invite for the account's first owner, answered with its link. */
const ownerInvite = async (members: Services['members'], accountId: string, origin: string) => {
  const invite = await members.createInvite(accountId, { role: 'owner' });
  return { url: `${origin}/invites/${invite.token}`, expiresAt: invite.expiresAt };
};

const adminCreateAccountRoute = ({ accounts, members, config }: Pick<Services, 'accounts' | 'members' | 'config'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/accounts',
    operationId: 'adminCreateAccount',
    summary: 'Create an account, optionally with starting credits',
    tags,
    access: admin,
    body: createAccountBody,
    responses: {
      201: {
        description: 'Created',
        schema: z.object({
          id: z.uuid(),
          name: z.string(),
          creditBalance: z.number(),
          ownerInvite: inviteSchema.optional(),
        }),
      },
      ...adminErrors,
    },
    handle: async ({ body, ctx }) => {
      const account = await accounts.create(body.name, body.credits ?? 0);
      if (!body.ownerInvite) return account;
      return { ...account, ownerInvite: await ownerInvite(members, account.id, siteOrigin(ctx, config)) };
    },
  });

const adminCreateInviteRoute = ({ members, config }: Pick<Services, 'members' | 'config'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/accounts/{accountId}/invites',
    operationId: 'adminCreateInvite',
    summary: 'An invite link to the dashboard for one more person of the account (owner or member)',
    tags,
    access: admin,
    params: uuidParam('accountId'),
    body: z.strictObject({ role: z.enum(MEMBER_ROLES).optional() }),
    responses: { 201: { description: 'Created', schema: inviteSchema }, ...adminErrors },
    handle: async ({ params, body, ctx }) => {
      const invite = await members.createInvite(params.accountId, { role: body.role ?? 'owner' });
      return { url: `${siteOrigin(ctx, config)}/invites/${invite.token}`, expiresAt: invite.expiresAt };
    },
  });

const adminAddCreditsRoute = ({ accounts }: Pick<Services, 'accounts'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/accounts/{accountId}/credits',
    operationId: 'adminAddCredits',
    summary: 'Add credits to an account',
    tags,
    access: admin,
    params: uuidParam('accountId'),
    body: addCreditsBody,
    responses: {
      200: { description: 'New balance', schema: z.object({ creditBalance: z.number() }) },
      ...adminErrors,
    },
    handle: ({ params, body }) => accounts.addCredits(params.accountId, body.amount),
  });

const adminCreateApiKeyRoute = ({ accounts, apiKeys }: Pick<Services, 'accounts' | 'apiKeys'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/accounts/{accountId}/api-keys',
    operationId: 'adminCreateApiKey',
    summary: 'Create an API key; the key and its webhook secret are shown only in this answer',
    tags,
    access: admin,
    params: uuidParam('accountId'),
    body: createApiKeyBody,
    responses: {
      201: {
        description: 'Created',
        schema: z.object({
          id: z.uuid(),
          apiKey: z.string(),
          webhookSecret: z.string(),
          permissions: z.array(z.enum(PERMISSIONS)),
        }),
      },
      ...adminErrors,
    },
    handle: async ({ params, body }) => {
      await accounts.require(params.accountId);
      return apiKeys.create(params.accountId, body);
    },
  });

const adminRevokeApiKeyRoute = ({ apiKeys }: Pick<Services, 'apiKeys'>) =>
  defineRoute({
    method: 'delete',
    path: '/admin/v1/api-keys/{keyId}',
    operationId: 'adminRevokeApiKey',
    summary: 'Revoke an API key; it answers 401 INVALID_API_KEY from then on',
    tags,
    access: admin,
    params: uuidParam('keyId'),
    responses: { 204: { description: 'Revoked' }, ...adminErrors },
    handle: ({ params }) => apiKeys.revoke(params.keyId),
  });

const adminRegenerateWebhookSecretRoute = ({ apiKeys }: Pick<Services, 'apiKeys'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/api-keys/{keyId}/webhook-secret',
    operationId: 'adminRegenerateWebhookSecret',
    summary: 'Regenerate the webhook secret of a key; the old one signs nothing from then on',
    tags,
    access: admin,
    params: uuidParam('keyId'),
    responses: {
      200: { description: 'New secret', schema: z.object({ webhookSecret: z.string() }) },
      ...adminErrors,
    },
    handle: ({ params }) => apiKeys.regenerateWebhookSecret(params.keyId),
  });

const adminEvaluateSignalRoute = ({ signalLifecycle }: Pick<Services, 'signalLifecycle'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/signals/{signalId}/evaluate',
    operationId: 'adminEvaluateSignal',
    summary: 'Evaluate an active signal now instead of waiting for its interval',
    tags,
    access: admin,
    params: uuidParam('signalId'),
    responses: {
      202: { description: 'Evaluation requested' },
      409: { description: 'The signal is not active (SIGNAL_NOT_ACTIVE)', schema: errorEnvelope },
      ...adminErrors,
    },
    handle: async ({ params }) => {
      await signalLifecycle.evaluateNow(params.signalId);
      return { signalId: params.signalId, evaluation: 'requested' };
    },
  });

const adminResetMemberPasswordRoute = ({ members }: Pick<Services, 'members'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/members/password-reset',
    operationId: 'adminResetMemberPassword',
    summary:
      'Give a dashboard member a new generated password (a lost demo sign-in); shown only in this answer, earlier sessions end',
    tags,
    access: admin,
    body: z.strictObject({ email: z.string().max(254).meta({ description: "The member's sign-in email" }) }),
    responses: {
      200: {
        description: 'The new password, shown only now',
        schema: z.object({ email: z.string(), password: z.string() }),
      },
      ...adminErrors,
      404: { description: 'No member signs in with that email', schema: errorEnvelope },
    },
    handle: ({ body }) => members.resetPassword(body.email),
  });

const adminRecordCrmConnectionRoute = ({ crmConnections }: Pick<Services, 'crmConnections'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/accounts/{accountId}/crm-connections',
    operationId: 'adminRecordCrmConnection',
    summary: "Import a CRM connection's tokens obtained outside the dashboard's OAuth (refreshed like any connection)",
    tags,
    access: admin,
    params: uuidParam('accountId'),
    body: crmConnectionBody,
    responses: {
      201: {
        description: 'Recorded',
        schema: z.object({ id: z.uuid(), provider: z.string(), connected: z.boolean(), connectedAt: z.string() }),
      },
      ...adminErrors,
    },
    handle: async ({ params, body }) => {
      const connection = await crmConnections.record(params.accountId, body);
      return {
        id: connection.integrationId,
        provider: connection.provider,
        connected: true,
        connectedAt: connection.connectedAt,
      };
    },
  });

export function adminRoutes(services: Services) {
  return [
    adminCreateAccountRoute(services),
    adminCreateInviteRoute(services),
    adminAddCreditsRoute(services),
    adminCreateApiKeyRoute(services),
    adminRevokeApiKeyRoute(services),
    adminRegenerateWebhookSecretRoute(services),
    adminEvaluateSignalRoute(services),
    adminResetMemberPasswordRoute(services),
    adminRecordCrmConnectionRoute(services),
  ];
}
