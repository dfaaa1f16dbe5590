import { isCategory, isKnownIndustry, redundantIndustryFilters, suggestIndustries } from '../../catalogue/industries';

export interface SignalWarning {
  code: string;
  field: string;
  message: string;
  severity: 'info' | 'warning';
  values: string[];
}

export interface SettingsReview {
  applied: Record<string, unknown>;
  warnings: SignalWarning[];
}

/** Unknown industries match nothing; a category with its own industries is redundant. */
export function reviewIndustries(industries: string[], review: SettingsReview): void {
  const unknown = industries.filter((name) => !isKnownIndustry(name) && !isCategory(name));
  if (unknown.length > 0) {
    const hints = unknown
      .map((name) => [name, suggestIndustries(name)[0]] as const)
      .filter(([, hint]) => hint)
      .map(([name, hint]) => `"${name}" → "${hint}"?`);
    review.warnings.push({
      code: 'UNKNOWN_INDUSTRY',
      field: 'industryFilters',
      severity: 'warning',
      message: `Unknown industries match no company (matching is exact): ${unknown.join(', ')}${hints.length ? `. Did you mean ${hints.join(' ')}` : ''}`,
      values: unknown,
    });
  }
  for (const { category, industries: own } of redundantIndustryFilters(industries)) {
    review.warnings.push({
      code: 'CATEGORY_WITH_ITS_INDUSTRIES',
      field: 'industryFilters',
      severity: 'info',
      message: `The category "${category}" already covers ${own.join(', ')}; listing them as well changes nothing`,
      values: [category, ...own],
    });
  }
}

/** The setting is accepted but acts on nothing: `applied` shows it as null, with a warning saying why. */
export function fieldUnused(field: 'getEmails' | 'getPhones', why: string, review: SettingsReview): void {
  review.applied[field] = null;
  review.warnings.push({
    code: 'FIELD_UNUSED',
    field,
    severity: 'info',
    message: `${field} is unused: ${why}`,
    values: [],
  });
}
