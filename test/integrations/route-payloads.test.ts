import { crmLeadFrom, sequencerLeadFrom } from '../../src/destinations/kit/route-payloads';
import { destinationRoutesOf } from '../../src/destinations/settings';

/** The one mapping from a stored lead to what each destination receives. */

const personLead = {
  signal: {
    id: 's1',
    name: 'New CTOs in Texas',
    type: 'job_changes',
    last_signal: 'Job Change',
    last_signal_date: '2026-10-02',
  },
  contact: {
    lead_id: '5f0c6a2e-7d1b-4b8e-9a57-3c2f1e0d9b11',
    created_at: '2026-10-03T10:00:00.000Z',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@acme.com',
    phone: '+1 512 555 0100',
    title: 'Chief Technology Officer',
    location: 'Austin, United States',
    city: 'Austin',
    country_code: 'US',
    linkedin_profile_url: 'https://www.linkedin.com/in/ada',
    sales_navigator_profile_url: '',
    matched_persona: 'Chief Technology Officer',
  },
  company: { name: 'Acme', website: 'https://www.acme.com', linkedin_url: '', employee_count: 120 },
};

const companyLead = {
  signal: { id: 's2', name: 'Watched accounts', type: 'account_watchlist', last_signal: 'Watched Company Raised' },
  contact: '' as const,
  company: { name: 'Acme', website: 'https://acme.com' },
};

test('a person-level lead gives the nine sequencer variables', () => {
  expect(sequencerLeadFrom(JSON.stringify(personLead), 'lemlist')).toEqual({
    ok: true,
    lead: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@acme.com',
      companyName: 'Acme',
      title: 'Chief Technology Officer',
      linkedinUrl: 'https://www.linkedin.com/in/ada',
      companyWebsite: 'https://www.acme.com',
      signalName: 'New CTOs in Texas',
      matchedPersona: 'Chief Technology Officer',
    },
  });
});

test('a company-level lead or a person without e-mail is refused for sequencers, with the reason', () => {
  expect(sequencerLeadFrom(companyLead, 'instantly')).toEqual({
    ok: false,
    reason: 'not sent: a company-level lead has no contact, and instantly adds only people with an e-mail address',
  });
  expect(sequencerLeadFrom({ ...companyLead, contact: null }, 'instantly').ok).toBe(false);
  const noEmail = sequencerLeadFrom({ ...personLead, contact: { ...personLead.contact, email: '' } }, 'smartlead');
  expect(noEmail).toEqual({
    ok: false,
    reason: expect.stringMatching(/^not sent: the lead has no e-mail address .* smartlead keys leads on e-mail$/),
  });
});

test('a CRM gets the contact and the company, and a company-level lead as a company alone', () => {
  expect(crmLeadFrom(personLead, 'ignored', 'hubspot')).toEqual({
    ok: true,
    lead: {
      email: 'ada@acme.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      title: 'Chief Technology Officer',
      phone: '+1 512 555 0100',
      linkedinUrl: 'https://www.linkedin.com/in/ada',
      companyName: 'Acme',
      companyDomain: 'acme.com',
      companyWebsite: 'https://www.acme.com',
      signalName: 'New CTOs in Texas',
      leadId: '5f0c6a2e-7d1b-4b8e-9a57-3c2f1e0d9b11',
    },
  });
  expect(crmLeadFrom(companyLead, 'lead-9', 'hubspot')).toEqual({
    ok: true,
    lead: expect.objectContaining({
      email: '',
      firstName: '',
      companyName: 'Acme',
      companyDomain: 'acme.com',
      leadId: 'lead-9',
    }),
  });
  expect(crmLeadFrom({ ...companyLead, company: { name: 'Nameless', website: '' } }, 'lead-9', 'hubspot')).toEqual({
    ok: false,
    reason: 'not sent: the lead has neither an e-mail address nor a company website for hubspot to match on',
  });
});

test("a signal's destinations become one route each: enabled CRMs and sequencers with a campaign", () => {
  expect(
    destinationRoutesOf({
      hubspot: { enabled: true },
      salesforce: { enabled: false },
      lemlist: { campaignId: 'cam_1', integrationId: '0b6f0b8e-1f7e-4a52-9c55-1d8a0c3e2f10' },
      smartlead: { campaignId: '1001' },
      unknown: { enabled: true },
    }),
  ).toEqual([
    { route: 'hubspot', target: 'hubspot', integrationId: null },
    { route: 'lemlist', target: 'cam_1', integrationId: '0b6f0b8e-1f7e-4a52-9c55-1d8a0c3e2f10' },
    { route: 'smartlead', target: '1001', integrationId: null },
  ]);
  expect(destinationRoutesOf({})).toEqual([]);
  expect(destinationRoutesOf(null)).toEqual([]);
});
