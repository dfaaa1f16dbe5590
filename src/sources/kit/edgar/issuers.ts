import type { DataSource } from 'typeorm';
import { nameKeyOf } from '../../../catalogue/identifiers';
import { titleCase } from '../record-names';
import type { CompanyRecordInput } from '../../../providers/data/records';
import { execute, firstRow, rows } from '../../../db/sql';

/** EDGAR's two-letter codes of the US states and DC (its foreign codes, such as "X0", are not countries we can name). */
const US_STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(
    ' ',
  ),
);

/** The ISO country of an EDGAR `stateOrCountry`: `US` for a state, else unknown. */
export const countryOfEdgarCode = (code: string | null) => (code && US_STATES.has(code.toUpperCase()) ? 'US' : null);

/** How an issuer was found to be a company (`sec_issuers.matched_by`). */
export type IssuerMatch = 'cik' | 'name-and-city' | 'only-company-of-that-name' | 'created';

export interface IssuerCompany {
  companyId: string;
  matchedBy: IssuerMatch;
  /** The company to ingest when none matched. */
  record: CompanyRecordInput | null;
}

/** An SEC filer as a company: its CIK and what the filing says of it (Form D's issuer, an ownership report's issuer, a filing header's party). */
export interface EdgarIssuer {
  /** Ten digits, as EDGAR writes it. */
  cik: string;
  name: string;
  city: string | null;
  /** A US state's two-letter code, or EDGAR's code of a foreign country or province. */
  stateOrCountry: string | null;
  entityType: string | null;
  yearOfIncorporation: number | null;
}

interface Candidate {
  id: string;
  hq_country_code: string | null;
  hq_city: string | null;
}

/**
 * Which company an SEC issuer is (docs/decisions/sources.md, "Form D issuers"):
 *  1. the company its CIK was linked to before;
 *  2. else, among stored companies of the same name key that no other CIK is linked to, the one
 *     whose headquarters city is the issuer's (and whose country does not differ);
 *  3. else, when exactly one stored company has that name and it states no city or country that
 *     differs, that one;
 *  4. else a new company `sec-cik-<cik>`: two companies sharing the name with no place to tell
 *     them apart are never guessed between.
 */
export class SecIssuers {
  constructor(private readonly db: DataSource) {}

  async resolve(issuer: EdgarIssuer, industry: string | null): Promise<IssuerCompany> {
    const linked = await firstRow<{ company_id: string }>(
      this.db,
      `SELECT company_id FROM sec_issuers WHERE cik = $1`,
      [issuer.cik],
    );
    if (linked) return { companyId: linked.company_id, matchedBy: 'cik', record: null };

    const country = countryOfEdgarCode(issuer.stateOrCountry);
    const city = issuer.city?.toLowerCase() ?? null;
    const candidates = await rows<Candidate>(
      this.db,
      `SELECT c.id, c.hq_country_code, c.hq_city FROM companies c
       WHERE c.name_key = $1
         AND NOT EXISTS (SELECT 1 FROM sec_issuers s WHERE s.company_id = c.id AND s.cik <> $2)
       ORDER BY c.id`,
      [nameKeyOf(issuer.name), issuer.cik],
    );
    const countryAgrees = (c: Candidate) => !c.hq_country_code || !country || c.hq_country_code === country;
    const sameCity = candidates.filter((c) => city && c.hq_city?.toLowerCase() === city && countryAgrees(c));
    if (sameCity.length === 1) return { companyId: sameCity[0]!.id, matchedBy: 'name-and-city', record: null };
    const only = candidates.length === 1 ? candidates[0]! : undefined;
    if (only && countryAgrees(only) && (!only.hq_city || !city || only.hq_city.toLowerCase() === city)) {
      return { companyId: only.id, matchedBy: 'only-company-of-that-name', record: null };
    }
    const id = `sec-cik-${issuer.cik}`;
    return {
      companyId: id,
      matchedBy: 'created',
      record: {
        kind: 'company',
        id,
        name: issuer.name,
        industry,
        hqCountryCode: country,
        hqCity: issuer.city ? titleCase(issuer.city) : null,
        companyType: issuer.entityType,
        foundedYear: issuer.yearOfIncorporation,
      },
    };
  }

  /** Remembers the issuer's company once that company is stored, so its next filings need no name match. */
  async link(issuer: EdgarIssuer, match: IssuerCompany): Promise<void> {
    await execute(
      this.db,
      `INSERT INTO sec_issuers (cik, company_id, matched_by, state_or_country, city) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (cik) DO NOTHING`,
      [issuer.cik, match.companyId, match.matchedBy, issuer.stateOrCountry, issuer.city],
    );
  }
}
