import type { Config } from '../../config';

export const CRM_PROVIDERS = ['hubspot', 'salesforce', 'pipedrive', 'google-sheets'] as const;
export type CrmProvider = (typeof CRM_PROVIDERS)[number];

export const isCrmProvider = (name: string): name is CrmProvider => (CRM_PROVIDERS as readonly string[]).includes(name);

/** How each tool's authorization server is reached, from its documentation (docs/decisions/integrations.md). */
export interface CrmVendor {
  provider: CrmProvider;
  name: string;
  clientId?: string;
  clientSecret?: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** RFC 7009 revocation. */
  revokeUrl?: string;
  /** HubSpot's own revocation: `DELETE {url}/{refreshToken}`. */
  refreshTokenDeleteUrl?: string;
  /** How the client authenticates at the token endpoint. */
  clientAuth: 'post' | 'basic';
  /** Sent with the authorization request; Pipedrive takes scopes from the app's registration instead. */
  scope?: string;
  authorizeParams?: Record<string, string>;
  /** The field of the token answer naming the API host of this connection, where the vendor has one. */
  apiBaseField?: 'instance_url' | 'api_domain';
}

export function crmVendors(config: Config): Record<CrmProvider, CrmVendor> {
  return {
    hubspot: {
      provider: 'hubspot',
      name: 'HubSpot',
      clientId: config.HUBSPOT_CLIENT_ID,
      clientSecret: config.HUBSPOT_CLIENT_SECRET,
      authorizeUrl: config.HUBSPOT_AUTHORIZE_URL,
      tokenUrl: config.HUBSPOT_TOKEN_URL,
      refreshTokenDeleteUrl: `${new URL(config.HUBSPOT_TOKEN_URL).origin}/oauth/v1/refresh-tokens`,
      clientAuth: 'post',
      scope:
        'oauth crm.objects.contacts.read crm.objects.contacts.write crm.objects.companies.read crm.objects.companies.write',
    },
    salesforce: {
      provider: 'salesforce',
      name: 'Salesforce',
      clientId: config.SALESFORCE_CLIENT_ID,
      clientSecret: config.SALESFORCE_CLIENT_SECRET,
      authorizeUrl: `${config.SALESFORCE_LOGIN_URL}/services/oauth2/authorize`,
      tokenUrl: `${config.SALESFORCE_LOGIN_URL}/services/oauth2/token`,
      revokeUrl: `${config.SALESFORCE_LOGIN_URL}/services/oauth2/revoke`,
      clientAuth: 'post',
      scope: 'api refresh_token',
      apiBaseField: 'instance_url',
    },
    pipedrive: {
      provider: 'pipedrive',
      name: 'Pipedrive',
      clientId: config.PIPEDRIVE_CLIENT_ID,
      clientSecret: config.PIPEDRIVE_CLIENT_SECRET,
      authorizeUrl: `${config.PIPEDRIVE_OAUTH_URL}/oauth/authorize`,
      tokenUrl: `${config.PIPEDRIVE_OAUTH_URL}/oauth/token`,
      revokeUrl: `${config.PIPEDRIVE_OAUTH_URL}/oauth/revoke`,
      clientAuth: 'basic',
      apiBaseField: 'api_domain',
    },
    'google-sheets': {
      provider: 'google-sheets',
      name: 'Google Sheets',
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
      authorizeUrl: config.GOOGLE_AUTHORIZE_URL,
      tokenUrl: config.GOOGLE_TOKEN_URL,
      revokeUrl: config.GOOGLE_REVOKE_URL,
      clientAuth: 'post',
      scope: 'https://www.googleapis.com/auth/spreadsheets',
      // A refresh token comes only with offline access, and only on a consent screen (Google's OAuth guide).
      authorizeParams: { access_type: 'offline', prompt: 'consent' },
    },
  };
}
