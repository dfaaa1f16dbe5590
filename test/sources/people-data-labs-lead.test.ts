import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';
import { call, createAccount } from '../setup/http';
import {
  allLeads,
  client,
  company,
  createSignal,
  evaluateNow,
  event,
  ingest,
  jobChangeData,
  person,
  settled,
} from '../leads/fixtures';
import { pdlPerson, startPdl, type PdlServer } from './pdl-fixtures';

const KEY = 'pdl-test-key-2';
const JANE = 'JaneDoe0poWnQ1luFBfVw_0000';
const BEN = 'BenOkafo0oWnQ1luFBfVw_0000';
let stack: Stack;
let pdl: PdlServer;

beforeAll(async () => {
  pdl = await startPdl(KEY);
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      PEOPLE_DATA_LABS_API_KEY: KEY,
      PEOPLE_DATA_LABS_VERSION: '29.0',
      PEOPLE_DATA_LABS_INTERVAL: '24h',
      SOURCES_HOST_MAP: `api.peopledatalabs.com=${pdl.origin}`,
      SOURCES_HOST_INTERVAL_MS: '20',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await stack?.stop();
  await pdl?.close();
});

async function runPeopleDataLabs() {
  const before = (await stack.services.sources.get('people-data-labs')).lastRunFinishedAt;
  await call(`${stack.url}/admin/v1/sources/people-data-labs/run`, { method: 'POST', token: TEST_ADMIN_TOKEN });
  for (let i = 0; i < 300; i++) {
    const status = await stack.services.sources.get('people-data-labs');
    if (status.lastRunFinishedAt !== before && !status.running) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the people-data-labs run did not finish');
}

test('a changelog entry becomes a job-change lead with the previous and new job and the licensed contact; an opted-out person keeps the leads made but no name or contact data in the store', async () => {
  const northwind = company('pdl-northwind', { name: 'Northwind Labs' });
  const acme = company('pdl-acme', { name: 'Acme Analytics' });
  const jane = person('pdl-jane', northwind.id, { firstName: 'Jane', lastName: 'Doe', title: 'VP Engineering' });
  // Ben became a CTO last month (another provider's record), and is a lead already.
  const ben = person('pdl-ben', acme.id, { firstName: 'Ben', lastName: 'Okafo', title: 'CTO' });
  const benMove = event('ev-pdl-ben', 'job_change', new Date(Date.now() - 20 * 86_400_000).toISOString(), acme.id, {
    personId: ben.id,
    data: jobChangeData('CTO', 'Acme Analytics'),
  });
  await ingest(stack, [northwind, acme, jane, ben, benMove]);
  for (const [personId, pdlId] of [
    [jane.id, JANE],
    [ben.id, BEN],
  ]) {
    const tracked = await call(`${stack.url}/admin/v1/people/${personId}/people-data-labs`, {
      method: 'PUT',
      token: TEST_ADMIN_TOKEN,
      body: { pdlId },
    });
    expect(tracked.status).toBe(200);
  }

  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const signal = await createSignal(api, 'job-changes', {
    name: 'New CTOs',
    status: 'active',
    config: { jobTitles: ['Chief Technology Officer'] },
  });
  await settled(stack, signal.id);
  const [benLead] = await allLeads(api, signal.id);
  expect(benLead.contact).toMatchObject({ first_name: 'Ben', last_name: 'Okafo' });

  // Release 29.0 follows 28.2: Jane moved to Acme as its CTO, Ben opted out.
  pdl.changelog('28.2', '29.0', 'updated', [
    [{ id: JANE, additional_metadata: { fields_updated: ['job_company_name', 'job_title', 'job_start_date'] } }],
  ]);
  pdl.changelog('28.2', '29.0', 'opted_out', [[{ id: BEN }]]);
  const startMonth = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 7);
  pdl.person(
    pdlPerson(
      JANE,
      ['Jane', 'Doe'],
      { title: 'chief technology officer', company: 'acme analytics', website: 'pdl-acme.com', startDate: startMonth },
      { workEmail: 'jane.doe@pdl-acme.com' },
    ),
  );
  const status = await runPeopleDataLabs();
  expect(status).toMatchObject({ recordsIngested: 1, errors: 0 });
  await evaluateNow(stack, signal.id);

  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(2);
  const janeLead = leads.find((lead) => lead.contact.last_name === 'Doe');
  expect(janeLead.signal).toMatchObject({
    type: 'job_changes',
    last_signal: 'Job Change',
    previous_title: 'VP Engineering',
    previous_company: 'Northwind Labs',
    new_title: 'Chief Technology Officer',
    new_company: 'Acme Analytics',
    new_job_started_on: `${startMonth.slice(5)}/${startMonth.slice(0, 4)}`,
    new_job_start_month: startMonth,
    change_type: 'company',
  });
  expect(janeLead.contact).toMatchObject({
    first_name: 'Jane',
    last_name: 'Doe',
    title: 'Chief Technology Officer',
    linkedin_profile_url: 'https://www.linkedin.com/in/jane-doe',
    matched_persona: 'Chief Technology Officer',
  });
  // The licensed work email is stored with the person; a lead shows emails only when the signal asks (getEmails).
  expect(await stack.db.query(`SELECT email FROM people WHERE id = $1`, [`pdl-person:${JANE}:29.0`])).toEqual([
    { email: 'jane.doe@pdl-acme.com' },
  ]);
  expect(janeLead.company).toMatchObject({ name: 'Acme Analytics', website: expect.stringContaining('pdl-acme.com') });

  // Ben's lead stays the customer's; his row, which it names, keeps no name or contact data.
  expect(leads.find((lead) => lead.contact.lead_id === benLead.contact.lead_id).contact).toMatchObject({
    first_name: 'Ben',
  });
  expect(
    await stack.db.query(`SELECT first_name, last_name, email, phone, linkedin_url, city FROM people WHERE id = $1`, [
      ben.id,
    ]),
  ).toEqual([{ first_name: '', last_name: '', email: null, phone: null, linkedin_url: null, city: null }]);

  // Run and evaluated again: no second lead.
  await runPeopleDataLabs();
  await evaluateNow(stack, signal.id);
  expect(await allLeads(api, signal.id)).toHaveLength(2);
});
