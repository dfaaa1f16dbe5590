import { resolveLocation } from './locations';
import { matchPersona, type Department, type Seniority } from './personas';
import { WATCHLIST_SIGNAL_FIELDS } from './watchlist-events';

/**
 * The market-wide fundraising and hiring signals: round stages, the lead `signal` fields of
 * each, and their `last_signal` labels. Both read the same provider events as the watchlist
 * (`fundraising` rounds, `job_offers` postings), at any company in the data.
 */

/** Round stages a fundraising signal filters on (`fundingStages`); providers' names are matched case-insensitively. */
export const FUNDING_STAGES = [
  'Pre-Seed',
  'Seed',
  'Series A',
  'Series B',
  'Series C',
  'Series D',
  'Series E',
  'Series F+',
  'Growth',
  'Private Equity',
  'Debt Financing',
  'Convertible Note',
  'Corporate Round',
  'Grant',
  'Undisclosed',
] as const;

/** The fundraising `signal` block beyond the common fields (the specification's "fields seen"). */
export const FUNDRAISING_SIGNAL_FIELDS = ['funding_stage', 'funding_amount_usd', 'announcement_date'] as const;

/** The hiring `signal` block beyond the common fields: the watchlist's job-event fields (the posting and the keywords it matched), in its order. */
export const HIRING_SIGNAL_FIELDS: readonly string[] = WATCHLIST_SIGNAL_FIELDS.filter(
  (field) => field.startsWith('job_offer_') || field === 'matched_keywords',
);

/** The specification names no labels for these types; ours, beside the watchlist's ("Watched Company Raised", "Job Offer"). */
export const FUNDRAISING_LAST_SIGNAL_LABEL = 'Company Raised';
export const HIRING_LAST_SIGNAL_LABEL = 'Job Offer';

/** The provider event each type reads. */
export const FUNDRAISING_EVENT_TYPE = 'fundraising';
export const HIRING_EVENT_TYPE = 'job_offers';

/** What a hiring signal filters a posting on, read once from its title and location when it is ingested. */
export interface JobPostingProfile {
  department: Department | null;
  seniority: Seniority | null;
  countryCode: string | null;
  regionCode: string | null;
  city: string | null;
}

// Titles below the personas' leadership roles ("Senior Backend Engineer"): a word decides the department.
const DEPARTMENT_WORDS: readonly [RegExp, Department][] = [
  [/\b(security|secops|soc analyst|penetration)\b/i, 'security'],
  [/\b(data|analytics|analyst|machine learning|ml|ai|scientist)\b/i, 'data'],
  [/\b(engineer|engineering|developer|devops|sre|architect|programmer|software)\b/i, 'engineering'],
  [/\b(product manager|product owner|product)\b/i, 'product'],
  [/\b(designer|design|ux|ui)\b/i, 'design'],
  [/\b(it|helpdesk|system administrator|sysadmin|network)\b/i, 'it'],
  [/\b(sales|account executive|sdr|bdr|business development|account manager)\b/i, 'sales'],
  [/\b(marketing|seo|content|brand|growth|demand generation)\b/i, 'marketing'],
  [/\b(customer success|support|customer experience|onboarding)\b/i, 'customer_success'],
  [/\b(finance|accountant|accounting|controller|fp&a|treasury)\b/i, 'finance'],
  [/\b(recruiter|recruiting|talent|hr|people|human resources)\b/i, 'human_resources'],
  [/\b(legal|counsel|lawyer|paralegal|compliance)\b/i, 'legal'],
  [/\b(procurement|buyer|purchasing|sourcing)\b/i, 'procurement'],
  [/\b(operations|logistics|supply chain)\b/i, 'operations'],
];

const SENIORITY_WORDS: readonly [RegExp, Seniority][] = [
  [/\b(founder|co-founder|cofounder)\b/i, 'founder'],
  [/\b(chief|ceo|cto|cfo|coo|cmo|cio|ciso|cro|cpo)\b/i, 'c_level'],
  [/\b(vp|vice president|svp|evp)\b/i, 'vp'],
  [/\b(director|head of)\b/i, 'director'],
  [/\b(manager|lead|team lead)\b/i, 'manager'],
];

export function jobPostingProfile(
  title: string | null | undefined,
  location: string | null | undefined,
  /** The department the job board files the posting under, when it names one: it wins over the title's words. */
  boardDepartment?: string | null,
): JobPostingProfile {
  const persona = title ? matchPersona(title) : undefined;
  const filed = boardDepartment ? (DEPARTMENT_WORDS.find(([words]) => words.test(boardDepartment))?.[1] ?? null) : null;
  const department =
    filed ??
    persona?.department ??
    (title ? (DEPARTMENT_WORDS.find(([words]) => words.test(title))?.[1] ?? null) : null);
  const seniority =
    persona?.seniority ??
    (title ? (SENIORITY_WORDS.find(([words]) => words.test(title))?.[1] ?? 'individual_contributor') : null);
  const place = location ? resolveLocation(location) : undefined;
  return {
    department,
    seniority,
    countryCode: place?.countryCode ?? null,
    regionCode: place && place.kind !== 'country' ? (place.regionCode ?? null) : null,
    city: place?.kind === 'city' ? (place.city ?? place.name) : null,
  };
}
