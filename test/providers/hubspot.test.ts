import { companyDomainOf, HubSpotCrm } from '../../src/providers/crm/hubspot';
import { start, type HubSpotServer } from '../vendors/hubspot-server';
import { crmLead, rejection } from './fixtures';

describe('HubSpot CRM against a local HubSpot', () => {
  let vendor: HubSpotServer;
  let hubspot: HubSpotCrm;

  beforeEach(async () => {
    vendor = await start();
    hubspot = new HubSpotCrm({ baseUrl: vendor.url, timeoutMs: 2000 });
  });
  afterEach(() => vendor.close());

  const calls = () => vendor.received.map((r) => `${r.method} ${r.path}`);

  it('creates the company, upserts the contact and associates them', async () => {
    const pushed = await hubspot.pushLead(vendor.accessToken, crmLead());
    expect(calls()).toEqual([
      'POST /crm/v3/objects/companies/search',
      'POST /crm/v3/objects/companies',
      'POST /crm/v3/objects/contacts/batch/upsert',
      `PUT /crm/v4/objects/contacts/${pushed.contactId}/associations/default/companies/${pushed.companyId}`,
    ]);
    expect(vendor.received.every((r) => r.headers.authorization === `Bearer ${vendor.accessToken}`)).toBe(true);
    expect(vendor.received[0]?.body).toEqual({
      filterGroups: [{ filters: [{ propertyName: 'domain', operator: 'EQ', value: 'piedpiper.com' }] }],
      sorts: [{ propertyName: 'createdate', direction: 'ASCENDING' }],
      properties: ['domain', 'name'],
      limit: 1,
    });
    expect(vendor.companies).toEqual([
      {
        id: pushed.companyId,
        properties: { name: 'Pied Piper', domain: 'piedpiper.com', website: 'https://piedpiper.com' },
      },
    ]);
    expect(vendor.received[2]?.body).toEqual({
      inputs: [
        {
          id: 'richard@piedpiper.com',
          idProperty: 'email',
          properties: {
            email: 'richard@piedpiper.com',
            firstname: 'Richard',
            lastname: 'Hendricks',
            jobtitle: 'CEO',
            phone: '+1 555 0100',
            company: 'Pied Piper',
          },
        },
      ],
    });
    expect(vendor.associations).toEqual([{ contactId: pushed.contactId, companyId: pushed.companyId }]);
  });

  it('finds the company the second time instead of creating it again', async () => {
    const first = await hubspot.pushLead(vendor.accessToken, crmLead());
    const second = await hubspot.pushLead(
      vendor.accessToken,
      crmLead({ email: 'jared@piedpiper.com', firstName: 'Jared' }),
    );
    expect(second.companyId).toBe(first.companyId);
    expect(vendor.companies).toHaveLength(1);
    expect(calls().filter((c) => c === 'POST /crm/v3/objects/companies')).toHaveLength(1);
    expect(vendor.associations).toHaveLength(2);
  });

  it('upserts the same contact by e-mail without blanking known values', async () => {
    const first = await hubspot.pushLead(vendor.accessToken, crmLead());
    const again = await hubspot.pushLead(vendor.accessToken, crmLead({ phone: '', title: 'Chief Executive' }));
    expect(again.contactId).toBe(first.contactId);
    expect(vendor.contacts).toHaveLength(1);
    expect(vendor.contacts[0]?.properties).toMatchObject({ phone: '+1 555 0100', jobtitle: 'Chief Executive' });
  });

  it('pushes only the company for a company-level lead (no e-mail)', async () => {
    const pushed = await hubspot.pushLead(vendor.accessToken, crmLead({ email: '', firstName: '', lastName: '' }));
    expect(pushed).toEqual({ companyId: vendor.companies[0]?.id });
    expect(vendor.contacts).toHaveLength(0);
    expect(calls()).toEqual(['POST /crm/v3/objects/companies/search', 'POST /crm/v3/objects/companies']);
  });

  it('pushes only the contact when the lead has no company domain or website', async () => {
    const pushed = await hubspot.pushLead(vendor.accessToken, crmLead({ companyDomain: '', companyWebsite: '' }));
    expect(pushed).toEqual({ contactId: vendor.contacts[0]?.id });
    expect(vendor.companies).toHaveLength(0);
  });

  it('derives the company domain from the website when no domain is given', () => {
    expect(companyDomainOf({ companyDomain: '', companyWebsite: 'https://www.Acme.io/about' })).toBe('acme.io');
    expect(companyDomainOf({ companyDomain: 'WWW.hooli.com', companyWebsite: '' })).toBe('hooli.com');
    expect(companyDomainOf({ companyDomain: 'localhost', companyWebsite: '' })).toBeUndefined();
  });

  it('classifies a 429 with its Retry-After (5 s when absent)', async () => {
    vendor.failNext(429, { retryAfter: 2 });
    await expect(rejection(hubspot.pushLead(vendor.accessToken, crmLead()))).resolves.toMatchObject({
      vendor: 'hubspot',
      status: 429,
      permanent: false,
      retryAfterSeconds: 2,
    });
    vendor.failNext(429);
    await expect(rejection(hubspot.pushLead(vendor.accessToken, crmLead()))).resolves.toMatchObject({
      retryAfterSeconds: 5,
    });
  });

  it('classifies a 5xx in the middle of a push as retryable, and the retry completes it', async () => {
    await hubspot.pushLead(vendor.accessToken, crmLead()); // the company exists
    vendor.failNext(503); // answers the next push's company search
    const push = hubspot.pushLead(vendor.accessToken, crmLead({ email: 'gilfoyle@piedpiper.com' }));
    await expect(rejection(push)).resolves.toMatchObject({ status: 503, permanent: false });
    const retried = await hubspot.pushLead(vendor.accessToken, crmLead({ email: 'gilfoyle@piedpiper.com' }));
    expect(retried.companyId).toBe(vendor.companies[0]?.id);
    expect(vendor.companies).toHaveLength(1);
  });

  it('classifies a refused token (401) as permanent and never repeats the token', async () => {
    const error = await rejection(hubspot.pushLead('expired-token-value', crmLead()));
    expect(error).toMatchObject({ status: 401, permanent: true });
    expect(error.message).toContain('Authentication credentials not found');
    expect(error.message).not.toContain('expired-token-value');
  });

  it('classifies a refused property (400) as permanent', async () => {
    vendor.failNext(400, {
      body: { status: 'error', message: 'Property "foo" does not exist', category: 'VALIDATION_ERROR' },
    });
    await expect(rejection(hubspot.pushLead(vendor.accessToken, crmLead()))).resolves.toMatchObject({
      status: 400,
      permanent: true,
    });
  });
});
