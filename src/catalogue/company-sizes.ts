/**
 * Company size bands of `companySizeFilters` and of `company.employee_range`.
 *
 * The band labels overlap at 1 ("Self-employed" and "1-10"), so the edges are
 * fixed here once: an employee count of 0 or 1 is "Self-employed" (a one-person
 * company), 2 to 10 is "1-10". `sizeBandOf` and `bandRange` are exact inverses
 * of each other, so a lead's `employee_range` and a SQL filter on
 * `employee_count` never disagree.
 */

export const COMPANY_SIZE_BANDS = [
  'Self-employed',
  '1-10',
  '11-50',
  '51-200',
  '201-500',
  '501-1000',
  '1001-5000',
  '5001-10000',
  '10001+',
] as const;

export type CompanySizeBand = (typeof COMPANY_SIZE_BANDS)[number];

export interface BandRange {
  /** Inclusive. */
  min: number;
  /** Inclusive; null for the open-ended top band. */
  max: number | null;
}

const RANGES: Readonly<Record<CompanySizeBand, BandRange>> = {
  'Self-employed': { min: 0, max: 1 },
  '1-10': { min: 2, max: 10 },
  '11-50': { min: 11, max: 50 },
  '51-200': { min: 51, max: 200 },
  '201-500': { min: 201, max: 500 },
  '501-1000': { min: 501, max: 1000 },
  '1001-5000': { min: 1001, max: 5000 },
  '5001-10000': { min: 5001, max: 10000 },
  '10001+': { min: 10001, max: null },
};

const BAND_SET: ReadonlySet<string> = new Set(COMPANY_SIZE_BANDS);

export function isCompanySizeBand(value: unknown): value is CompanySizeBand {
  return typeof value === 'string' && BAND_SET.has(value);
}

/** Throws RangeError on a negative or non-finite count: such a value is a data error, not a size. */
export function sizeBandOf(employeeCount: number): CompanySizeBand {
  if (!Number.isFinite(employeeCount) || employeeCount < 0) {
    throw new RangeError(`employee count must be a non-negative number, got ${employeeCount}`);
  }
  // Fractional counts come from averaged vendor data; a band is about whole people.
  const count = Math.floor(employeeCount);
  for (const band of COMPANY_SIZE_BANDS) {
    const { max } = RANGES[band];
    if (max === null || count <= max) return band;
  }
  return '10001+';
}

export function bandRange(band: CompanySizeBand): BandRange {
  const range = RANGES[band];
  return { min: range.min, max: range.max };
}
