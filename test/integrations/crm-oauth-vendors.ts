import { start as startHubSpotApi, type HubSpotServer } from '../vendors/hubspot-server';
import { startOAuthServer, type OAuthServer } from '../vendors/oauth-server';
import {
  startPipedrive,
  startSalesforce,
  startSheets,
  type PipedriveServer,
  type SalesforceServer,
  type SheetsServer,
} from '../vendors/crm-servers';

/** Each tool's authorization server and API, as separate local servers, as the vendors run them. */
export interface CrmVendors {
  hubspot: { oauth: OAuthServer; api: HubSpotServer };
  salesforce: { oauth: OAuthServer; api: SalesforceServer };
  pipedrive: { oauth: OAuthServer; api: PipedriveServer };
  'google-sheets': { oauth: OAuthServer; api: SheetsServer };
  /** The same as 'google-sheets', by a shorter name. */
  sheets: { oauth: OAuthServer; api: SheetsServer } & { spreadsheets: SheetsServer['spreadsheets'] };
}

export async function startCrmVendors(): Promise<CrmVendors> {
  const client = (vendor: string) => ({ clientId: `${vendor}-client`, clientSecret: `${vendor}-secret` });
  // HubSpot: access tokens for 30 minutes (here 30 s, inside our one-minute margin, so every push refreshes first).
  const hubspotOAuth = await startOAuthServer({
    vendor: 'HubSpot',
    ...client('hubspot'),
    clientAuth: 'post',
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/2026-03/token',
    deletePath: '/oauth/v1/refresh-tokens',
    expiresIn: 30,
    rotateRefreshTokens: false,
  });
  const hubspotApi = await startHubSpotApi({ authorizes: hubspotOAuth.accepts });

  const salesforceApi = await startSalesforce((authorization) => salesforceOAuth.accepts(authorization));
  // Salesforce: no expires_in (the session lasts the org's timeout); instance_url names the org's host.
  const salesforceOAuth: OAuthServer = await startOAuthServer({
    vendor: 'Salesforce',
    ...client('salesforce'),
    clientAuth: 'post',
    authorizePath: '/services/oauth2/authorize',
    tokenPath: '/services/oauth2/token',
    revokePath: '/services/oauth2/revoke',
    expiresIn: null,
    rotateRefreshTokens: false,
    extra: () => ({
      instance_url: salesforceApi.url,
      id: `${salesforceApi.url}/id/00D/005`,
      scope: 'api refresh_token',
    }),
  });

  const pipedriveApi = await startPipedrive((authorization) => pipedriveOAuth.accepts(authorization));
  // Pipedrive: HTTP Basic client authentication, single-use refresh tokens, api_domain on every answer.
  const pipedriveOAuth: OAuthServer = await startOAuthServer({
    vendor: 'Pipedrive',
    ...client('pipedrive'),
    clientAuth: 'basic',
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/token',
    revokePath: '/oauth/revoke',
    expiresIn: 3599,
    rotateRefreshTokens: true,
    extra: () => ({ api_domain: pipedriveApi.url, scope: 'contacts:full,leads:full' }),
  });

  const sheetsApi = await startSheets((authorization) => googleOAuth.accepts(authorization));
  const googleOAuth: OAuthServer = await startOAuthServer({
    vendor: 'Google',
    ...client('google'),
    clientAuth: 'post',
    authorizePath: '/o/oauth2/v2/auth',
    tokenPath: '/token',
    revokePath: '/revoke',
    expiresIn: 3599,
    rotateRefreshTokens: false,
  });
  const sheets = { oauth: googleOAuth, api: sheetsApi };
  return {
    hubspot: { oauth: hubspotOAuth, api: hubspotApi },
    salesforce: { oauth: salesforceOAuth, api: salesforceApi },
    pipedrive: { oauth: pipedriveOAuth, api: pipedriveApi },
    'google-sheets': sheets,
    sheets: { ...sheets, spreadsheets: sheetsApi.spreadsheets },
  };
}

export async function stopCrmVendors(vendors: CrmVendors | undefined): Promise<void> {
  if (!vendors) return;
  const { sheets: _same, ...each } = vendors;
  await Promise.all(Object.values(each).flatMap((v) => [v.oauth.close(), v.api.close()]));
}

/** The service's settings pointing every tool at its stand-ins. */
export function vendorEnv(vendors: CrmVendors): Record<string, string> {
  return {
    HUBSPOT_CLIENT_ID: 'hubspot-client',
    HUBSPOT_CLIENT_SECRET: 'hubspot-secret',
    HUBSPOT_AUTHORIZE_URL: `${vendors.hubspot.oauth.url}/oauth/authorize`,
    HUBSPOT_TOKEN_URL: `${vendors.hubspot.oauth.url}/oauth/2026-03/token`,
    HUBSPOT_API_URL: vendors.hubspot.api.url,
    SALESFORCE_CLIENT_ID: 'salesforce-client',
    SALESFORCE_CLIENT_SECRET: 'salesforce-secret',
    SALESFORCE_LOGIN_URL: vendors.salesforce.oauth.url,
    PIPEDRIVE_CLIENT_ID: 'pipedrive-client',
    PIPEDRIVE_CLIENT_SECRET: 'pipedrive-secret',
    PIPEDRIVE_OAUTH_URL: vendors.pipedrive.oauth.url,
    GOOGLE_CLIENT_ID: 'google-client',
    GOOGLE_CLIENT_SECRET: 'google-secret',
    GOOGLE_AUTHORIZE_URL: `${vendors.sheets.oauth.url}/o/oauth2/v2/auth`,
    GOOGLE_TOKEN_URL: `${vendors.sheets.oauth.url}/token`,
    GOOGLE_REVOKE_URL: `${vendors.sheets.oauth.url}/revoke`,
    GOOGLE_SHEETS_API_URL: vendors.sheets.api.url,
  };
}
