import { child, listAt, readXml, textAt } from './xml';

/**
 * A Form D notice (`primary_doc.xml`, root `edgarSubmission`, EDGAR Form D XML technical
 * specification): the issuer, its related persons and the offering, in the fields a
 * fundraising event and its company and people need.
 */
export interface FormD {
  submissionType: 'D' | 'D/A';
  issuer: FormDIssuer;
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
  /** The filing an amendment amends (`typeOfFiling/newOrAmendment/previousAccessionNumber`). */
  previousAccessionNumber: string | null;
  /** Who signed, with the title they signed under. */
  signers: { name: string; title: string }[];
}

export interface FormDIssuer {
  /** Ten digits, as EDGAR writes it. */
  cik: string;
  name: string;
  city: string | null;
  /** A US state's two-letter code, or EDGAR's code of a foreign country or province. */
  stateOrCountry: string | null;
  entityType: string | null;
  /** `yearOfInc/value` when the form states it. */
  yearOfIncorporation: number | null;
}

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
  const year = Number(textAt(issuer, 'yearOfInc', 'value'));
  return {
    formD: {
      submissionType,
      issuer: {
        cik: cik.padStart(10, '0'),
        name,
        city: textAt(issuer, 'issuerAddress', 'city'),
        stateOrCountry: textAt(issuer, 'issuerAddress', 'stateOrCountry'),
        entityType: textAt(issuer, 'entityType'),
        yearOfIncorporation: Number.isInteger(year) && year > 1600 ? year : null,
      },
      relatedPersons: listAt(submission, 'relatedPersonsList', 'relatedPersonInfo').flatMap(relatedPerson),
      industryGroup,
      pooledFund: industryGroup === POOLED_INVESTMENT_FUND || textAt(offered, 'isPooledInvestmentFundType') === 'true',
      securities,
      totalOfferingAmount: offeringAmount(textAt(offering, 'offeringSalesAmounts', 'totalOfferingAmount')),
      totalAmountSold: usd(textAt(offering, 'offeringSalesAmounts', 'totalAmountSold')),
      previousAccessionNumber: textAt(offering, 'typeOfFiling', 'newOrAmendment', 'previousAccessionNumber'),
      signers: listAt(offering, 'signatureBlock', 'signature').flatMap((signature) => {
        const signer = textAt(signature, 'nameOfSigner');
        return signer ? [{ name: signer, title: textAt(signature, 'signatureTitle') ?? '' }] : [];
      }),
    },
  };
}

function relatedPerson(info: unknown): RelatedPerson[] {
  const firstName = textAt(info, 'relatedPersonName', 'firstName');
  const lastName = textAt(info, 'relatedPersonName', 'lastName');
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
