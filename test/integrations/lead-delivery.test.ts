import type { Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import {
  client,
  connectCrm,
  draftSignalFor,
  expectAnswer,
  ingestJobChanger,
  onlyLead,
  settledDeliveries,
  startIntegrationsStack,
  startVendors,
  startWebhookReceiver,
  stopVendors,
  type Client,
  type JobChanger,
  type Vendors,
  type WebhookReceiver,
} from './helpers';

/**
 * Leads of a signal with destinations reach the tools: one delivery per destination beside the
 * webhook, pushed through the vendor adapters by the same delivery workflow, with the same
 * retry rules and every attempt recorded. The vendors are local servers; leads come from
 * ingested job changes and an active job-changes signal with `getEmails`.
 */

let vendors: Vendors;
let stack: Stack;
let api: Client;
let accountId: string;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  vendors = await startVendors();
  stack = await startIntegrationsStack(vendors);
  const account = await createAccount(stack, { credits: 1000 });
  accountId = account.accountId;
  api = client(stack, account);
  expectAnswer(await api.put('/integrations/lemlist', { apiKey: vendors.lemlist.apiKey, label: 'lemlist' }), 200);
  expectAnswer(await api.put('/integrations/instantly', { apiKey: vendors.instantly.apiKey, label: 'Instantly' }), 200);
  expectAnswer(await api.put('/integrations/smartlead', { apiKey: vendors.smartlead.apiKey, label: 'Smartlead' }), 200);
});
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
  await stack?.stop();
  await stopVendors(vendors);
});

const attemptsOf = (deliveryId: string) =>
  stack.db.query(
    `SELECT attempt, status_code, error, at FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`,
    [deliveryId],
  );

/** A lead of a fresh person, sent to `destinations` once the signal is activated. */
async function leadThrough(
  destinations: Record<string, unknown>,
  options: { email?: string | null; webhookUrl?: string } = {},
) {
  const person = await ingestJobChanger(stack, { email: options.email });
  const signal = await draftSignalFor(api, person, { webhookUrl: options.webhookUrl });
  expectAnswer(await api.patch(`/signals/${signal.id}`, { destinations }), 200);
  return { person, signal };
}

const activate = async (signalId: string) =>
  expectAnswer(await api.patch(`/signals/${signalId}`, { status: 'active' }), 200);

/** The nine variables, from what the person's records hold and the lead says of them. */
function expectedVariables(person: JobChanger, signalName: string, lead: any) {
  expect(lead.contact.linkedin_profile_url).toContain(`grace-${person.tag}`);
  expect(lead.contact.matched_persona).toBe('Chief Technology Officer');
  return {
    firstName: 'Grace',
    lastName: person.lastName,
    email: person.email,
    companyName: person.companyName,
    title: person.title,
    linkedinUrl: lead.contact.linkedin_profile_url,
    companyWebsite: `https://${person.domain}`,
    signalName,
    matchedPersona: 'Chief Technology Officer',
  };
}

describe('each sequencer receives its own fields and the nine variables by the specification names, mapped from the stored lead', () => {
  test('lemlist', async () => {
    const campaign = vendors.lemlist.addCampaign('CTO outreach');
    const { person, signal } = await leadThrough({ lemlist: { campaignId: campaign._id } });
    await activate(signal.id);
    const [delivery] = await settledDeliveries(api, signal.id, 1);
    expect(delivery).toMatchObject({
      route: 'lemlist',
      kind: 'lead',
      status: 'delivered',
      attempts: 1,
      lastStatusCode: null,
      lastError: null,
    });
    const v = expectedVariables(person, signal.name, await onlyLead(api, signal.id));
    expect(vendors.lemlist.leads.filter((l) => l.email === person.email)).toEqual([
      {
        campaignId: campaign._id,
        email: v.email,
        query: { deduplicate: 'true' },
        // lemlist's own title field, and the nine by the specification's names.
        body: { jobTitle: v.title, ...v },
      },
    ]);
    expect(await attemptsOf(delivery.id)).toEqual([
      { attempt: 1, status_code: null, error: null, at: expect.any(Date) },
    ]);
  });

  test('Instantly', async () => {
    const campaign = vendors.instantly.addCampaign('CTO outreach');
    const { person, signal } = await leadThrough({ instantly: { campaignId: campaign.id } });
    await activate(signal.id);
    const [delivery] = await settledDeliveries(api, signal.id, 1);
    expect(delivery).toMatchObject({ route: 'instantly', status: 'delivered', attempts: 1 });
    const v = expectedVariables(person, signal.name, await onlyLead(api, signal.id));
    expect(vendors.instantly.leads.filter((l) => l.body.email === person.email).map((l) => l.body)).toEqual([
      {
        campaign: campaign.id,
        email: v.email,
        first_name: v.firstName,
        last_name: v.lastName,
        company_name: v.companyName,
        job_title: v.title,
        website: v.companyWebsite,
        custom_variables: v,
        skip_if_in_campaign: true,
      },
    ]);
  });

  test('Smartlead', async () => {
    const campaign = vendors.smartlead.addCampaign('CTO outreach');
    const { person, signal } = await leadThrough({ smartlead: { campaignId: String(campaign.id) } });
    await activate(signal.id);
    const [delivery] = await settledDeliveries(api, signal.id, 1);
    expect(delivery).toMatchObject({ route: 'smartlead', status: 'delivered', attempts: 1 });
    const v = expectedVariables(person, signal.name, await onlyLead(api, signal.id));
    expect(vendors.smartlead.leads.filter((l) => l.lead.email === person.email)).toEqual([
      {
        campaignId: campaign.id,
        lead: {
          email: v.email,
          first_name: v.firstName,
          last_name: v.lastName,
          company_name: v.companyName,
          website: v.companyWebsite,
          custom_fields: v,
        },
      },
    ]);
  });
});

test('HubSpot: the company is upserted by domain, the contact by e-mail, and they are associated', async () => {
  await connectCrm(stack, accountId, 'hubspot', vendors.hubspot.accessToken);
  const { person, signal } = await leadThrough({ hubspot: { enabled: true } });
  await activate(signal.id);
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: 'hubspot', status: 'delivered', attempts: 1, lastError: null });
  const company = vendors.hubspot.companies.find((c) => c.properties.domain === person.domain);
  expect(company?.properties).toEqual({
    name: person.companyName,
    domain: person.domain,
    website: `https://${person.domain}`,
  });
  const contact = vendors.hubspot.contacts.find((c) => c.properties.email === person.email);
  expect(contact?.properties).toEqual({
    email: person.email,
    firstname: 'Grace',
    lastname: person.lastName,
    jobtitle: person.title,
    company: person.companyName,
  });
  expect(vendors.hubspot.associations).toContainEqual({ contactId: contact?.id, companyId: company?.id });
});

test('a vendor 5xx is retried with back-off, and the lead is delivered on the second attempt', async () => {
  const campaign = vendors.lemlist.addCampaign('Retry');
  const { person, signal } = await leadThrough({ lemlist: { campaignId: campaign._id } });
  vendors.lemlist.failNext(503);
  await activate(signal.id);
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: 'lemlist', status: 'delivered', attempts: 2, lastError: null });
  const attempts = await attemptsOf(delivery.id);
  expect(attempts.map(({ at: _at, ...rest }: any) => rest)).toEqual([
    {
      attempt: 1,
      status_code: 503,
      error: 'lemlist POST /campaigns/{id}/leads/{email} answered HTTP 503: lemlist error 503',
    },
    { attempt: 2, status_code: null, error: null },
  ]);
  expect(vendors.lemlist.leads.filter((l) => l.email === person.email)).toHaveLength(1);
});

test("a vendor 429 waits the vendor's Retry-After, not the short back-off", async () => {
  const campaign = vendors.instantly.addCampaign('Throttled');
  const { signal } = await leadThrough({ instantly: { campaignId: campaign.id } });
  vendors.instantly.failNext(429, { retryAfter: 1 });
  await activate(signal.id);
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
  const [first, second] = await attemptsOf(delivery.id);
  expect(first).toMatchObject({ status_code: 429 });
  // Back-off alone would retry after 200 ms.
  expect(second.at.getTime() - first.at.getTime()).toBeGreaterThanOrEqual(900);
});

test('another vendor 4xx is permanent: one attempt, delivery failed with the vendor status', async () => {
  const campaign = vendors.smartlead.addCampaign('Removed later');
  const { signal } = await leadThrough({ smartlead: { campaignId: String(campaign.id) } });
  // The campaign is deleted at Smartlead after the destination was saved.
  vendors.smartlead.campaigns.splice(vendors.smartlead.campaigns.indexOf(campaign), 1);
  await activate(signal.id);
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: 'smartlead', status: 'failed', attempts: 1, lastStatusCode: 404 });
  expect(delivery.lastError).toContain('HTTP 404');
  await new Promise((r) => setTimeout(r, 800));
  expect(await attemptsOf(delivery.id)).toHaveLength(1);
});

test('the webhook and a sequencer destination of one signal both receive the same lead', async () => {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const campaign = vendors.lemlist.addCampaign('Both routes');
  const { person, signal } = await leadThrough({ lemlist: { campaignId: campaign._id } }, { webhookUrl: receiver.url });
  await activate(signal.id);
  const deliveries = await settledDeliveries(api, signal.id, 2);
  expect(deliveries.map((d) => [d.route, d.status]).sort()).toEqual([
    ['lemlist', 'delivered'],
    ['webhook', 'delivered'],
  ]);
  const lead = await onlyLead(api, signal.id);
  expect(receiver.bodies).toHaveLength(1);
  const sent = receiver.bodies[0];
  expect(sent).toEqual(lead);
  const pushed = vendors.lemlist.leads.filter((l) => l.email === person.email);
  expect(pushed).toHaveLength(1);
  expect(pushed[0]).toMatchObject({
    campaignId: campaign._id,
    email: sent.contact.email,
    body: {
      firstName: sent.contact.first_name,
      lastName: sent.contact.last_name,
      companyName: sent.company.name,
      jobTitle: sent.contact.title,
      email: sent.contact.email,
      title: sent.contact.title,
      linkedinUrl: sent.contact.linkedin_profile_url,
      companyWebsite: sent.company.website,
      signalName: sent.signal.name,
      matchedPersona: sent.contact.matched_persona,
    },
  });
  expect(deliveries.every((d) => d.leadId === sent.contact.lead_id)).toBe(true);
});

test('a lead without an e-mail address cannot go to a sequencer: failed at once, saying why, nothing sent', async () => {
  const campaign = vendors.instantly.addCampaign('No email');
  const before = vendors.instantly.received.filter((r) => r.method === 'POST').length;
  const { signal } = await leadThrough({ instantly: { campaignId: campaign.id } }, { email: null });
  await activate(signal.id);
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: 'instantly', status: 'failed', attempts: 1, lastStatusCode: null });
  expect(delivery.lastError).toMatch(/^not sent: the lead has no e-mail address/);
  expect(vendors.instantly.received.filter((r) => r.method === 'POST').length).toBe(before);
  expect((await onlyLead(api, signal.id)).contact.email).toBe('');
});

test('a Salesforce connection imported without its instance URL fails its delivery permanently, saying so', async () => {
  await connectCrm(stack, accountId, 'salesforce', 'salesforce-token');
  const { signal } = await leadThrough({ salesforce: { enabled: true } });
  await activate(signal.id);
  const [delivery] = await settledDeliveries(api, signal.id, 1);
  expect(delivery).toMatchObject({ route: 'salesforce', status: 'failed', attempts: 1 });
  expect(delivery.lastError).toBe('not sent: the salesforce connection names no API address; reconnect it');
});
