import { call } from '../setup/http';
import { TEST_ADMIN_TOKEN } from '../setup/stack';
import { allLeads, company, createSignal, daysAgo, ingest, jobChanger, settled, leadsTestBed } from './fixtures';

/**
 * Lead fields filled from what the provider's records carry: the company's tech stack,
 * homepage title and meta description ("only with enrichment"), and the person's Sales
 * Navigator page. The same fields come back from a firmographic lookup.
 */

const bed = leadsTestBed({ credits: 1000 });

test('a lead carries the homepage title, meta description, tech bed.stack and Sales Navigator page the records carry', async () => {
  const changer = jobChanger('enriched', daysAgo(5), {
    person: { salesNavigatorProfileUrl: 'https://www.linkedin.com/sales/lead/ACwAAB12345,NAME_SEARCH,abcd' },
  });
  const enrichedCompany = {
    ...changer.company,
    techStack: ['Snowflake', 'dbt'],
    homepageTitle: 'Enriched Labs | Data tools for finance teams',
    metaDescription: 'Enriched Labs builds data tools that close the books faster.',
  };
  await ingest(bed.stack, [enrichedCompany, changer.person, changer.event]);
  const signal = await createSignal(bed.api, 'job-changes', {
    name: 'Enriched CTOs',
    status: 'active',
    config: { jobTitles: ['Chief Technology Officer'] },
  });
  await settled(bed.stack, signal.id);

  const [lead] = await allLeads(bed.api, signal.id);
  expect(lead.company).toMatchObject({
    tech_stack: ['Snowflake', 'dbt'],
    homepage_title: 'Enriched Labs | Data tools for finance teams',
    meta_description: 'Enriched Labs builds data tools that close the books faster.',
  });
  expect(lead.contact.sales_navigator_profile_url).toBe(
    'https://www.linkedin.com/sales/lead/ACwAAB12345,NAME_SEARCH,abcd',
  );

  const found = await bed.api.get(`/enrichment/firmographic?domain=${changer.company.domain}`);
  expect(found.status).toBe(200);
  expect(found.body.company).toEqual(lead.company);
});

test('a company without them keeps the empty strings; a Sales Navigator URL elsewhere is refused on ingest', async () => {
  const plain = company('plain-fields', { techStack: [] });
  await ingest(bed.stack, [plain]);
  const answer = await call(`${bed.stack.url}/admin/v1/ingest`, {
    method: 'POST',
    token: TEST_ADMIN_TOKEN,
    body: [
      {
        kind: 'person',
        id: 'pe-bad-nav',
        firstName: 'A',
        lastName: 'B',
        companyId: plain.id,
        salesNavigatorProfileUrl: 'https://evil.example/sales/lead/1',
      },
    ],
  });
  expect(answer.body).toMatchObject({
    accepted: 0,
    rejected: 1,
    errors: [{ line: 1, message: expect.stringContaining('salesNavigatorProfileUrl') }],
  });
  const found = await bed.api.get(`/enrichment/firmographic?domain=${plain.domain}`);
  expect(found.body.company).toMatchObject({ tech_stack: '', homepage_title: '', meta_description: '' });
});
