import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { crmVendors } from '../../src/services/crm/vendors';

/** Each tool's OAuth settings: the vendors' documented endpoints by default, a tool without a client id not offered. */
const base = {
  DATABASE_URL: 'postgres://localhost/none',
  ADMIN_TOKEN: 'an-admin-token-0123456789',
  SECRETS_KEY: randomBytes(32).toString('base64'),
};

test('a tool without a client id (unset or empty, as compose passes it) is not configured', () => {
  const vendors = crmVendors(loadConfig({ ...base, HUBSPOT_CLIENT_ID: '', PIPEDRIVE_CLIENT_ID: 'pd-app' }));
  expect(vendors.hubspot.clientId).toBeUndefined();
  expect(vendors.salesforce.clientId).toBeUndefined();
  expect(vendors.pipedrive.clientId).toBe('pd-app');
});

test("the endpoints default to the vendors' documented ones", () => {
  const vendors = crmVendors(loadConfig(base));
  expect(vendors.hubspot).toMatchObject({
    authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
    tokenUrl: 'https://api.hubapi.com/oauth/2026-03/token',
    refreshTokenDeleteUrl: 'https://api.hubapi.com/oauth/v1/refresh-tokens',
    clientAuth: 'post',
  });
  expect(vendors.salesforce).toMatchObject({
    authorizeUrl: 'https://login.salesforce.com/services/oauth2/authorize',
    tokenUrl: 'https://login.salesforce.com/services/oauth2/token',
    revokeUrl: 'https://login.salesforce.com/services/oauth2/revoke',
    scope: 'api refresh_token',
    apiBaseField: 'instance_url',
  });
  expect(vendors.pipedrive).toMatchObject({
    authorizeUrl: 'https://oauth.pipedrive.com/oauth/authorize',
    tokenUrl: 'https://oauth.pipedrive.com/oauth/token',
    clientAuth: 'basic',
    apiBaseField: 'api_domain',
  });
  expect(vendors['google-sheets']).toMatchObject({
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    revokeUrl: 'https://oauth2.googleapis.com/revoke',
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
  });
  // A sandbox or My Domain login URL, with or without its trailing slash.
  expect(
    crmVendors(loadConfig({ ...base, SALESFORCE_LOGIN_URL: 'https://test.salesforce.com/' })).salesforce.tokenUrl,
  ).toBe('https://test.salesforce.com/services/oauth2/token');
});
