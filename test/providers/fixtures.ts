import type { CrmLead } from '../../src/providers/crm/hubspot';
import { OutboundHttpError } from '../../src/providers/outbound-error';
import type { SequencerLead } from '../../src/providers/sequencers';

/** Every variable distinct, so a test can tell which field landed where. */
export function sequencerLead(overrides: Partial<SequencerLead> = {}): SequencerLead {
  return {
    firstName: 'Richard',
    lastName: 'Hendricks',
    email: 'richard@piedpiper.com',
    companyName: 'Pied Piper',
    title: 'CEO',
    linkedinUrl: 'https://www.linkedin.com/in/richard-hendricks/',
    companyWebsite: 'https://piedpiper.com',
    signalName: 'Series A watch',
    matchedPersona: 'Founder',
    ...overrides,
  };
}

export function crmLead(overrides: Partial<CrmLead> = {}): CrmLead {
  return {
    email: 'richard@piedpiper.com',
    firstName: 'Richard',
    lastName: 'Hendricks',
    title: 'CEO',
    phone: '+1 555 0100',
    linkedinUrl: 'https://www.linkedin.com/in/richard-hendricks/',
    companyName: 'Pied Piper',
    companyDomain: 'piedpiper.com',
    companyWebsite: 'https://piedpiper.com',
    signalName: 'Series A watch',
    leadId: '5f0c6a2e-7d1b-4b8e-9a57-3c2f1e0d9b11',
    ...overrides,
  };
}

/** The `OutboundHttpError` a call rejects with (fails the test if it resolves or throws anything else). */
export async function rejection(promise: Promise<unknown>): Promise<OutboundHttpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundHttpError);
    return error as OutboundHttpError;
  }
  throw new Error('expected the call to fail');
}
