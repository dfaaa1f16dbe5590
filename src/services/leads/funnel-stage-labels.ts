/**
 * A funnel stage in words, for people (the dashboard's funnel and cost preview); the API keeps
 * the config field names the contract gives the stages.
 */
const STAGE_LABELS: Readonly<Record<string, string>> = {
  jobTitles: 'Job title',
  companySizeFilters: 'Company size',
  industryFilters: 'Industry',
  locations: 'Location',
  maxJobAgeDays: 'Age of the job change',
  sources: 'Event type',
  companyNewsArticle: 'Article names the company',
  firstRunLookbackDays: 'First-run lookback',
  targetPersonas: 'Target personas',
  fundingStages: 'Funding stage',
  minAmountUsd: 'Minimum amount',
  maxAmountUsd: 'Maximum amount',
  maxAnnouncementAgeDays: 'Age of the announcement',
  keywords: 'Keywords',
  departments: 'Department',
  seniorities: 'Seniority',
  jobLocations: 'Job location',
  maxPostingAgeDays: 'Age of the posting',
  suppressed: 'Suppression list',
  crmExcluded: 'Already in your CRM',
  duplicate: 'Already a lead (duplicates)',
  dailyLeadLimit: 'Daily lead limit',
  credits: 'Credits',
};

/** The stage's words; a stage without its own (a new field) is its name split into words. */
export function funnelStageLabel(filter: string): string {
  const known = STAGE_LABELS[filter];
  if (known) return known;
  const words = filter.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
