import { z } from 'zod';
import { COMPANY_SIZE_BANDS } from '../../catalogue/company-sizes';
import { isKnownPersona } from '../../catalogue/personas';

/** Config parts several signal types share; each type's own schema is in `src/signal-types`. */

export const personaName = z
  .string()
  .refine(isKnownPersona, 'is not a persona name; use a `name` from GET /api/v1/personas');
export const textList = z.array(z.string().trim().min(1).max(255)).max(500);

/** The company filters of job changes, fundraising and hiring. */
export const companyFilterFields = {
  companySizeFilters: z.array(z.enum(COMPANY_SIZE_BANDS)).optional().meta({ description: 'Company size bands' }),
  industryFilters: textList
    .optional()
    .meta({ description: 'Names copied verbatim from GET /api/v1/signals/industries; matching is exact' }),
};

const companyObject = z.strictObject({
  name: z.string().trim().max(255).nullish(),
  domain: z.string().trim().max(255).nullish(),
  linkedinUrl: z.string().trim().max(500).nullish(),
});
export const companyEntry = z.union([z.string().trim().max(500), companyObject]);
export type CompanyEntry = z.output<typeof companyEntry>;

export const companyEntries = z.array(companyEntry).max(10_000);
