import { companyDomainOf, type CrmLead } from '../../providers/crm/hubspot';
import type { SequencerLead } from '../../providers/sequencers';
import type { SlackLead } from '../../providers/slack/lead-message';

/**
 * What each destination receives, mapped from the ONE stored lead payload (the Lead resource
 * the webhook and the leads endpoint serve), so every route tells the same story about a lead.
 * Pure functions: the delivery attempt decides what to do with a refusal.
 */
export type RoutePayload<T> = { ok: true; lead: T } | { ok: false; reason: string };

/** The stored payload as far as the mappings read it; every value may be missing or not a string. */
interface StoredLead {
  signal?: Record<string, unknown> | null;
  contact?: Record<string, unknown> | '' | null;
  company?: Record<string, unknown> | null;
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

function parts(payload: string | StoredLead) {
  const lead: StoredLead = typeof payload === 'string' ? JSON.parse(payload) : payload;
  const contact = lead.contact && typeof lead.contact === 'object' ? lead.contact : null;
  return { signal: lead.signal ?? {}, contact, company: lead.company ?? {} };
}

/**
 * The nine sequencer variables (interface spec, "Sequencer variables received per lead").
 * Every sequencer keys a lead on its e-mail address, so a company-level lead (no contact) or a
 * person without an address cannot be pushed: refused with the reason the delivery records.
 */
export function sequencerLeadFrom(payload: string | StoredLead, tool: string): RoutePayload<SequencerLead> {
  const { signal, contact, company } = parts(payload);
  if (!contact) {
    return {
      ok: false,
      reason: `not sent: a company-level lead has no contact, and ${tool} adds only people with an e-mail address`,
    };
  }
  const lead: SequencerLead = {
    firstName: text(contact.first_name),
    lastName: text(contact.last_name),
    email: text(contact.email),
    companyName: text(company.name),
    title: text(contact.title),
    linkedinUrl: text(contact.linkedin_profile_url),
    companyWebsite: text(company.website),
    signalName: text(signal.name),
    matchedPersona: text(contact.matched_persona),
  };
  if (!lead.email) {
    return {
      ok: false,
      reason: `not sent: the lead has no e-mail address (getEmails is off, or none was found), and ${tool} keys leads on e-mail`,
    };
  }
  return { ok: true, lead };
}

/**
 * A CRM record: the contact when there is a person, always the company. A CRM matches contacts
 * on e-mail and companies on domain; a lead with neither has nothing to be filed under.
 */
export function crmLeadFrom(payload: string | StoredLead, leadId: string, tool: string): RoutePayload<CrmLead> {
  const { signal, contact, company } = parts(payload);
  const website = text(company.website);
  const lead: CrmLead = {
    email: text(contact?.email),
    firstName: text(contact?.first_name),
    lastName: text(contact?.last_name),
    title: text(contact?.title),
    phone: text(contact?.phone),
    linkedinUrl: text(contact?.linkedin_profile_url),
    companyName: text(company.name),
    companyDomain: companyDomainOf({ companyDomain: '', companyWebsite: website }) ?? '',
    companyWebsite: website,
    signalName: text(signal.name),
    leadId: text(contact?.lead_id) || leadId,
  };
  if (!lead.email && !lead.companyDomain) {
    return {
      ok: false,
      reason: `not sent: the lead has neither an e-mail address nor a company website for ${tool} to match on`,
    };
  }
  return { ok: true, lead };
}

/** The event's own line, from the first fields its kind fills (job change, news, job ad, funding, post). */
function eventDetailOf(signal: Record<string, unknown>): { detail: string; url: string } {
  const previous = [text(signal.previous_title), text(signal.previous_company)].filter(Boolean).join(' at ');
  const funding = [text(signal.funding_type) || text(signal.funding_stage), text(signal.funding_amount_usd)]
    .filter(Boolean)
    .join(', $');
  const detail =
    (previous && `previously ${previous}`) ||
    text(signal.news_headline) ||
    text(signal.news_title) ||
    text(signal.job_offer_title) ||
    funding ||
    text(signal.deal_type) ||
    text(signal.engagement_type);
  const url = text(signal.news_url) || text(signal.job_offer_url) || text(signal.post_url);
  return { detail, url };
}

/**
 * A Slack alert: who, what happened, the signal, and links to the person, the company and the
 * lead in the dashboard (`{publicUrl}/signals/{id}#lead-{leadId}`; none without PUBLIC_URL).
 * Every lead can be announced, company-level ones included.
 */
export function slackLeadFrom(
  payload: string | StoredLead,
  where: { leadId: string; signalId: string; publicUrl: string | undefined },
): SlackLead {
  const { signal, contact, company } = parts(payload);
  const { detail, url } = eventDetailOf(signal);
  return {
    personName: [text(contact?.first_name), text(contact?.last_name)].filter(Boolean).join(' '),
    title: text(contact?.title),
    companyName: text(company.name),
    event: text(signal.last_signal),
    eventDetail: detail,
    eventUrl: url,
    eventDate: text(signal.last_signal_date),
    signalName: text(signal.name),
    personUrl: text(contact?.linkedin_profile_url),
    companyUrl: text(company.website) || text(company.linkedin_url),
    dashboardUrl: where.publicUrl ? `${where.publicUrl}/signals/${where.signalId}#lead-${where.leadId}` : '',
  };
}
