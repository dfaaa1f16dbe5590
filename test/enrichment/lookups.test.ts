import type { Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { client, creditsOf, expectStatus, ingestStore, startEnrichmentStack, type ApiClient } from './fixtures';

let stack: Stack;

beforeAll(async () => {
  stack = await startEnrichmentStack({}, { worker: false });
  await ingestStore(stack);
});
afterAll(() => stack.stop());

async function account(credits = 20): Promise<ApiClient> {
  return client(stack, await createAccount(stack, { credits }));
}

const JANE_CONTACT = {
  first_name: 'Jane',
  last_name: 'Doe',
  email: 'jane.doe@acme.io',
  phone: '',
  title: 'Chief Technology Officer',
  location: 'Austin, United States',
  city: 'Austin',
  country_code: 'US',
  linkedin_profile_url: 'https://www.linkedin.com/in/jane-doe',
  sales_navigator_profile_url: '',
  matched_persona: 'Chief Technology Officer',
};

const ACME_COMPANY = {
  name: 'Acme Analytics',
  website: 'https://acme.io',
  linkedin_url: 'https://www.linkedin.com/company/acme-analytics',
  hq_country_code: 'US',
  hq_city: 'Austin',
  tech_stack: ['HubSpot CRM', 'PostgreSQL'],
  homepage_title: '',
  meta_description: '',
  description: 'Analytics for anvils.',
  industry: 'Software Development',
  location: 'Austin, United States',
  employee_count: 120,
  employee_range: '51-200',
  headquarters: 'Austin, US',
  company_type: 'Privately Held',
  founded_year: 2015,
};

describe('GET /api/v1/enrichment/contact', () => {
  test('found by profile URL, email, or name at a company domain: the lead blocks, 1 credit each', async () => {
    const api = await account(10);
    const byUrl = expectStatus(
      await api.get('/enrichment/contact', { linkedinUrl: 'linkedin.com/in/Jane-Doe/', freshness: 'cached' }),
      200,
    );
    expect(byUrl).toEqual({ found: true, contact: JANE_CONTACT, company: ACME_COMPANY });
    const byEmail = expectStatus(await api.get('/enrichment/contact', { email: 'JANE.DOE@acme.io' }), 200);
    expect(byEmail).toEqual(byUrl);
    const byName = expectStatus(
      await api.get('/enrichment/contact', {
        firstName: 'jane',
        lastName: 'DOE',
        companyDomain: 'https://www.acme.io/team',
      }),
      200,
    );
    expect(byName).toEqual(byUrl);
    const live = expectStatus(
      await api.get('/enrichment/contact', { email: 'jane.doe@acme.io', freshness: 'live' }),
      200,
    );
    expect(live).toEqual(byUrl);

    expect(await creditsOf(api)).toEqual({
      balance: 6,
      charges: Array.from({ length: 4 }, () => ({ operation: 'enrichment_contact', credits: -1 })),
    });
  });

  test('not found answers found:false and charges nothing', async () => {
    const api = await account(10);
    for (const query of [
      { linkedinUrl: 'https://www.linkedin.com/in/nobody-here' },
      { email: 'nobody@acme.io' },
      { firstName: 'Jane', lastName: 'Doe', companyDomain: 'globex.com' },
      { email: 'nobody@acme.io', freshness: 'live' },
    ]) {
      expect(expectStatus(await api.get('/enrichment/contact', query), 200)).toEqual({
        found: false,
        contact: null,
        company: null,
      });
    }
    expect(await creditsOf(api)).toEqual({ balance: 10, charges: [] });
  });

  test('missing or malformed identifiers are 400 INVALID_REQUEST; nothing is charged', async () => {
    const api = await account(10);
    for (const query of [
      {},
      { firstName: 'Jane', lastName: 'Doe' },
      { linkedinUrl: 'https://www.linkedin.com/company/acme-analytics' },
      { email: 'not-an-email' },
      { email: 'jane.doe@acme.io', freshness: 'yesterday' },
    ]) {
      const answer = await api.get('/enrichment/contact', query);
      expect({ query, status: answer.status, code: answer.body.error.code }).toEqual({
        query,
        status: 400,
        code: 'INVALID_REQUEST',
      });
    }
    expect(await creditsOf(api)).toEqual({ balance: 10, charges: [] });
  });

  test('a balance below the price is 402 INSUFFICIENT_CREDITS before the lookup', async () => {
    const api = await account(0.5);
    const answer = await api.get('/enrichment/contact', { email: 'jane.doe@acme.io' });
    expect(answer.status).toBe(402);
    expect(answer.body.error.code).toBe('INSUFFICIENT_CREDITS');
    // The same check comes first for a lookup that would find nothing.
    expect((await api.get('/enrichment/contact', { email: 'nobody@acme.io' })).status).toBe(402);
    expect(await creditsOf(api)).toEqual({ balance: 0.5, charges: [] });
  });
});

describe('GET /api/v1/enrichment/firmographic', () => {
  test('found by domain, company page or unique name: the company block, 0.5 credit each', async () => {
    const api = await account(10);
    for (const query of [
      { domain: 'www.acme.io' },
      { linkedinUrl: 'https://linkedin.com/company/Acme-Analytics' },
      { name: '  acme   ANALYTICS ' },
    ]) {
      expect(expectStatus(await api.get('/enrichment/firmographic', query), 200)).toEqual({
        found: true,
        company: ACME_COMPANY,
      });
    }
    const initech = expectStatus(await api.get('/enrichment/firmographic', { domain: 'initech.de' }), 200);
    expect(initech.company).toMatchObject({
      name: 'Initech',
      linkedin_url: '',
      tech_stack: '',
      founded_year: '',
      employee_range: '11-50',
      headquarters: 'Munich, DE',
    });
    expect(await creditsOf(api)).toEqual({
      balance: 8,
      charges: Array.from({ length: 4 }, () => ({ operation: 'enrichment_firmographic', credits: -0.5 })),
    });
  });

  test('unknown or ambiguous companies answer found:false and charge nothing', async () => {
    const api = await account(10);
    for (const query of [
      { domain: 'nowhere.com' },
      { name: 'Twin Corp' },
      { linkedinUrl: 'https://www.linkedin.com/company/nobody' },
    ]) {
      expect(expectStatus(await api.get('/enrichment/firmographic', query), 200)).toEqual({
        found: false,
        company: null,
      });
    }
    const bad = await api.get('/enrichment/firmographic', {});
    expect(bad.status).toBe(400);
    expect(await creditsOf(api)).toEqual({ balance: 10, charges: [] });
  });
});

describe('GET /api/v1/enrichment/email', () => {
  test("found: the person's stored email, 0.5 credit; not found or no stored email: nothing charged", async () => {
    const api = await account(10);
    expect(
      expectStatus(
        await api.get('/enrichment/email', { firstName: 'Greta', lastName: 'Berg', domain: 'initech.de' }),
        200,
      ),
    ).toEqual({
      found: true,
      email: 'greta@initech.de',
    });
    // John is stored without an email: nothing is guessed from the name and the domain.
    expect(
      expectStatus(
        await api.get('/enrichment/email', { firstName: 'John', lastName: 'Smith', domain: 'globex.com' }),
        200,
      ),
    ).toEqual({
      found: false,
      email: null,
    });
    expect(
      expectStatus(
        await api.get('/enrichment/email', { firstName: 'Greta', lastName: 'Berg', domain: 'acme.io' }),
        200,
      ),
    ).toEqual({
      found: false,
      email: null,
    });
    expect((await api.get('/enrichment/email', { firstName: 'Greta', domain: 'initech.de' })).status).toBe(400);
    expect(await creditsOf(api)).toEqual({ balance: 9.5, charges: [{ operation: 'enrichment_email', credits: -0.5 }] });
  });
});

describe('permissions', () => {
  test('a key without `enrich` is 403 FORBIDDEN on every enrichment endpoint; search needs only `read`', async () => {
    const reader = client(stack, await createAccount(stack, { credits: 10, permissions: ['read'] }));
    const id = '00000000-0000-4000-8000-000000000000';
    const answers = [
      await reader.get('/enrichment/contact', { email: 'jane.doe@acme.io' }),
      await reader.get('/enrichment/firmographic', { domain: 'acme.io' }),
      await reader.get('/enrichment/email', { firstName: 'Greta', lastName: 'Berg', domain: 'initech.de' }),
      await reader.post('/enrichment/contacts/bulk', { contacts: [{ email: 'jane.doe@acme.io' }] }),
      await reader.get(`/enrichment/contacts/bulk/${id}`),
      await reader.post('/enrichment/phone', { email: 'jane.doe@acme.io' }),
      await reader.get(`/enrichment/phone/${id}`),
    ];
    for (const answer of answers) {
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    }
    expect((await reader.get('/companies/search')).status).toBe(200);
    expect((await reader.get('/people/search')).status).toBe(200);

    const enricher = client(stack, await createAccount(stack, { credits: 10, permissions: ['enrich'] }));
    expect((await enricher.get('/enrichment/contact', { email: 'jane.doe@acme.io' })).status).toBe(200);
    expect((await enricher.get('/companies/search')).status).toBe(403);
  });

  test('jobs and lookups of another account are 404 NOT_FOUND', async () => {
    const api = await account(10);
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await api.get(`/enrichment/contacts/bulk/${id}`)).status).toBe(404);
    expect((await api.get(`/enrichment/phone/${id}`)).status).toBe(404);
    expect((await api.get('/enrichment/phone/not-a-uuid')).status).toBe(404);
  });
});

describe('OpenAPI', () => {
  test('documents every enrichment and search path', async () => {
    const doc = expectStatus(await client(stack, { apiKey: '' }).get('/openapi.json'), 200);
    for (const [path, method] of [
      ['/api/v1/enrichment/contact', 'get'],
      ['/api/v1/enrichment/firmographic', 'get'],
      ['/api/v1/enrichment/email', 'get'],
      ['/api/v1/enrichment/contacts/bulk', 'post'],
      ['/api/v1/enrichment/contacts/bulk/{jobId}', 'get'],
      ['/api/v1/enrichment/phone', 'post'],
      ['/api/v1/enrichment/phone/{lookupId}', 'get'],
      ['/api/v1/enrichment/validate-location', 'get'],
      ['/api/v1/companies/search', 'get'],
      ['/api/v1/people/search', 'get'],
    ]) {
      expect({ path, method, documented: Boolean(doc.paths[path]?.[method]) }).toEqual({
        path,
        method,
        documented: true,
      });
    }
    expect(doc.paths['/api/v1/enrichment/contacts/bulk'].post.responses['202']).toBeDefined();
  });
});
