import type { EdgarIssuer } from '../../kit/edgar/issuers';
import { child, listAt, readXml, textAt } from '../../kit/edgar/xml';

/**
 * A Form D notice (`primary_doc.xml`, root `edgarSubmission`, EDGAR Form D XML technical
 * specification): the issuer, its related persons and the offering, in the fields a
 * fundraising event and its company and people need.
 */
export interface FormD {
  submissionType: 'D' | 'D/A';
  issuer: FormDIssuer;
  /** The other issuers of the offering (`issuerList/issuer`), each with its own CIK. */
  coIssuers: FormDIssuer[];
  relatedPersons: RelatedPerson[];
  /** `offeringData/industryGroup/industryGroupType`, e.g. "Other Technology", "Pooled Investment Fund". */
  industryGroup: string | null;
  /** A pooled investment fund (the industry group, or pooled fund interests offered). */
  pooledFund: boolean;
  /** The types of securities offered, as the form names them, in the form's order. */
  securities: string[];
  /** `totalOfferingAmount`: USD, `indefinite`, or null when absent. */
  totalOfferingAmount: number | 'indefinite' | null;
  /** `totalAmountSold`: USD, or null when absent or not a number. */
  totalAmountSold: number | null;
  /** `totalRemaining`: USD, `indefinite`, or null when absent. */
  totalRemaining: number | 'indefinite' | null;
  /** `typeOfFiling/dateOfFirstSale/value` (`YYYY-MM-DD`); null when it is yet to occur or not stated. */
  firstSaleOn: string | null;
  /** `investors/totalNumberAlreadyInvested`. */
  investors: number | null;
  /** `federalExemptionsExclusions/item`: the exemptions claimed, as the form codes them (`06b`, `06c`, `3C.1`…). */
  exemptions: string[];
  /** The filing an amendment amends (`typeOfFiling/newOrAmendment/previousAccessionNumber`). */
  previousAccessionNumber: string | null;
  /** Who signed, with the title they signed under. */
  signers: { name: string; title: string }[];
}

/** The issuer of a Form D: an EDGAR filer as src/sources/kit/edgar/issuers.ts matches it to a company. */
export type FormDIssuer = EdgarIssuer;

export interface RelatedPerson {
  firstName: string;
  lastName: string;
  /** `Executive Officer`, `Director`, `Promoter`. */
  relationships: string[];
  /** The filer's own words for the role, e.g. "Chief Executive Officer". */
  clarification: string | null;
  city: string | null;
  stateOrCountry: string | null;
}

/** `typesOfSecuritiesOffered` flags and the names the form prints beside them. */
const SECURITY_TYPES: ReadonlyArray<readonly [flag: string, label: string]> = [
  ['isEquityType', 'Equity'],
  ['isDebtType', 'Debt'],
  ['isOptionToAcquireType', 'Option, Warrant or Other Right to Acquire Another Security'],
  ['isSecurityToBeAcquiredType', 'Security to be Acquired Upon Exercise of Option, Warrant or Other Right'],
  ['isPooledInvestmentFundType', 'Pooled Investment Fund Interests'],
  ['isTenantInCommonType', 'Tenant-in-Common Securities'],
  ['isMineralPropertyType', 'Mineral Property Securities'],
  ['isOtherType', 'Other'],
];

export const POOLED_INVESTMENT_FUND = 'Pooled Investment Fund';

/** The Form D in `text`, or why it cannot be read as one. */
export function parseFormD(text: string): { formD: FormD } | { problem: string } {
  const xml = readXml(text);
  if ('problem' in xml) return xml;
  const submission = child(xml.root, 'edgarSubmission');
  if (!submission) return { problem: 'not a Form D document: the root element is not edgarSubmission' };
  const submissionType = textAt(submission, 'submissionType');
  if (submissionType !== 'D' && submissionType !== 'D/A') {
    return { problem: `not a Form D: submissionType is ${submissionType ? `"${submissionType}"` : 'missing'}` };
  }
  const issuer = child(submission, 'primaryIssuer');
  const cik = textAt(issuer, 'cik');
  const name = textAt(issuer, 'entityName');
  if (!cik || !/^\d{1,10}$/.test(cik) || !name) {
    return { problem: 'not a complete Form D: primaryIssuer has no cik or entityName' };
  }
  const offering = child(submission, 'offeringData');
  if (!offering) return { problem: 'not a complete Form D: offeringData is missing' };
  const industryGroup = textAt(offering, 'industryGroup', 'industryGroupType');
  const offered = child(offering, 'typesOfSecuritiesOffered');
  const securities = SECURITY_TYPES.filter(([flag]) => textAt(offered, flag) === 'true').map(([flag, label]) =>
    flag === 'isOtherType' && textAt(offered, 'descriptionOfOtherType')
      ? `Other: ${textAt(offered, 'descriptionOfOtherType')}`
      : label,
  );
  const primary = issuerOf(issuer)!;
  const firstSale = textAt(offering, 'typeOfFiling', 'dateOfFirstSale', 'value');
  const investors = Number(textAt(offering, 'investors', 'totalNumberAlreadyInvested') ?? '');
  return {
    formD: {
      submissionType,
      issuer: primary,
      // A co-issuer without its own CIK or name, or the primary issuer listed again, is no other company.
      coIssuers: listAt(submission, 'issuerList', 'issuer').flatMap((other) => {
        const read = issuerOf(other);
        return read && read.cik !== primary.cik ? [read] : [];
      }),
      relatedPersons: listAt(submission, 'relatedPersonsList', 'relatedPersonInfo').flatMap(relatedPerson),
      industryGroup,
      pooledFund: industryGroup === POOLED_INVESTMENT_FUND || textAt(offered, 'isPooledInvestmentFundType') === 'true',
      securities,
      totalOfferingAmount: offeringAmount(textAt(offering, 'offeringSalesAmounts', 'totalOfferingAmount')),
      totalAmountSold: usd(textAt(offering, 'offeringSalesAmounts', 'totalAmountSold')),
      totalRemaining: offeringAmount(textAt(offering, 'offeringSalesAmounts', 'totalRemaining')),
      firstSaleOn: firstSale && /^\d{4}-\d{2}-\d{2}$/.test(firstSale) ? firstSale : null,
      investors:
        textAt(offering, 'investors', 'totalNumberAlreadyInvested') && Number.isSafeInteger(investors) && investors >= 0
          ? investors
          : null,
      exemptions: listAt(offering, 'federalExemptionsExclusions', 'item')
        .map((item) => (typeof item === 'string' ? item.trim() : ''))
        .filter(Boolean),
      previousAccessionNumber: textAt(offering, 'typeOfFiling', 'newOrAmendment', 'previousAccessionNumber'),
      signers: listAt(offering, 'signatureBlock', 'signature').flatMap((signature) => {
        const signer = textAt(signature, 'nameOfSigner');
        return signer ? [{ name: signer, title: textAt(signature, 'signatureTitle') ?? '' }] : [];
      }),
    },
  };
}

/** An issuer element (`primaryIssuer` or one of `issuerList`), or null without a CIK and a name. */
function issuerOf(issuer: unknown): FormDIssuer | null {
  const cik = textAt(issuer, 'cik');
  const name = textAt(issuer, 'entityName');
  if (!cik || !/^\d{1,10}$/.test(cik) || !name) return null;
  const year = Number(textAt(issuer, 'yearOfInc', 'value'));
  return {
    cik: cik.padStart(10, '0'),
    name,
    city: textAt(issuer, 'issuerAddress', 'city'),
    stateOrCountry: textAt(issuer, 'issuerAddress', 'stateOrCountry'),
    entityType: textAt(issuer, 'entityType'),
    yearOfIncorporation: Number.isInteger(year) && year > 1600 ? year : null,
  };
}

/**
 * Words that make a related person's name an organisation's (docs/decisions/sources.md, "Form D:
 * an organisation is not a person"): a fund's general partner or manager is often filed in the
 * name fields, its name split between them or all in the last name.
 */
const ORGANISATION_WORDS =
  /\b(inc|incorporated|corp|corporation|company|ltd|limited|llc|l\.l\.c|lp|l\.p|llp|l\.l\.p|plc|gmbh|s\.a|b\.v|n\.v|pte|pty|holdings?|partners|capital|ventures|management|advisors|advisers|fund|trust|group|gp|foundation|associates)\b/i;

/** No first name (a dash or "N/A" is none), or a name part holding an organisation's word. */
export function isOrganisationName(
  firstName: string | null,
  middleName: string | null,
  lastName: string | null,
): boolean {
  const first = firstName?.replace(/^(n\/?a|none|-+|\.+)$/i, '').trim() ?? '';
  if (!first || !lastName) return true;
  return [first, middleName ?? '', lastName].some((part) => ORGANISATION_WORDS.test(part.replace(/,/g, ' ')));
}

function relatedPerson(info: unknown): RelatedPerson[] {
  const firstName = textAt(info, 'relatedPersonName', 'firstName');
  const lastName = textAt(info, 'relatedPersonName', 'lastName');
  if (isOrganisationName(firstName, textAt(info, 'relatedPersonName', 'middleName'), lastName)) return [];
  if (!firstName || !lastName) return [];
  return [
    {
      firstName,
      lastName,
      relationships: listAt(info, 'relatedPersonRelationshipList', 'relationship')
        .map((value) => (typeof value === 'string' ? value.trim() : ''))
        .filter(Boolean),
      clarification: textAt(info, 'relationshipClarification'),
      city: textAt(info, 'relatedPersonAddress', 'city'),
      stateOrCountry: textAt(info, 'relatedPersonAddress', 'stateOrCountry'),
    },
  ];
}

function offeringAmount(text: string | null): number | 'indefinite' | null {
  if (text && /^indefinite$/i.test(text)) return 'indefinite';
  return usd(text);
}

/** "8000000", "8,000,000.00", "$8000000" → 8000000; anything else → null. */
function usd(text: string | null): number | null {
  if (!text) return null;
  const cleaned = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}
