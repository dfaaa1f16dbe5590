/**
 * SEC EDGAR documents as EDGAR serves them, written from its formats: the current-filings Atom
 * feed (`browse-edgar?action=getcurrent&output=atom`), a daily form index (`form.YYYYMMDD.idx`)
 * and a Form D `primary_doc.xml` (EDGAR Form D XML technical specification, schema X0708).
 */

export interface FeedEntry {
  form: string;
  company: string;
  cik: string;
  accession: string;
  filedOn: string;
  role?: string;
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const feedPath = (start = 0) =>
  `/cgi-bin/browse-edgar?action=getcurrent&type=D&company=&dateb=&owner=include&start=${start}&count=100&output=atom`;

export const primaryDocPath = (cik: string, accession: string) =>
  `/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/primary_doc.xml`;

export const dailyIndexPath = (day: string) => {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return `/Archives/edgar/daily-index/${year}/QTR${Math.ceil(month / 3)}/form.${day.replace(/-/g, '')}.idx`;
};

export function currentFeed(entries: FeedEntry[]): string {
  const body = entries
    .map((e) => {
      const folder = `https://www.sec.gov/Archives/edgar/data/${Number(e.cik)}/${e.accession.replace(/-/g, '')}`;
      return `<entry>
<title>${escape(`${e.form} - ${e.company} (${e.cik}) (${e.role ?? 'Filer'})`)}</title>
<link rel="alternate" type="text/html" href="${folder}/${e.accession}-index.htm"/>
<summary type="html"> &lt;b&gt;Filed:&lt;/b&gt; ${e.filedOn} &lt;b&gt;AccNo:&lt;/b&gt; ${e.accession} &lt;b&gt;Size:&lt;/b&gt; 7 KB</summary>
<updated>${e.filedOn}T16:05:12-05:00</updated>
<category scheme="https://www.sec.gov/" label="form type" term="${escape(e.form)}"/>
<id>urn:tag:sec.gov,2008:accession-number=${e.accession}</id>
</entry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>Latest Filings - Tue, 24 Nov 2026 16:10:00 EST</title>
<link rel="alternate" href="/cgi-bin/browse-edgar?action=getcurrent"/>
<link rel="self" href="/cgi-bin/browse-edgar?action=getcurrent"/>
<id>https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent</id>
<author><name>Webmaster</name><email>webmaster@sec.gov</email></author>
<updated>2026-11-24T16:10:00-05:00</updated>
${body}
</feed>
`;
}

export interface IndexRow {
  form: string;
  company: string;
  cik: string;
  accession: string;
  filedOn: string;
}

export function dailyFormIndex(day: string, rows: IndexRow[]): string {
  const lines = rows.map(
    (r) =>
      `${r.form.padEnd(12)}${r.company.padEnd(62)}${String(Number(r.cik)).padEnd(12)}${r.filedOn.replace(/-/g, '').padEnd(12)}edgar/data/${Number(r.cik)}/${r.accession}.txt`,
  );
  return [
    'Description:           Daily Index of EDGAR Dissemination Feed by Form Type',
    `Last Data Received:    ${day}`,
    'Comments:              webmaster@sec.gov',
    'Anonymous FTP:         ftp://ftp.sec.gov/edgar/',
    ' ',
    ' ',
    ' ',
    'Form Type   Company Name                                                  CIK         Date Filed  File Name',
    '-'.repeat(141),
    ...lines,
    '',
  ].join('\n');
}

export interface Person {
  /** As filed: an organisation's name parts may leave it "-" or "N/A". */
  first: string;
  last: string;
  middle?: string;
  roles: string[];
  clarification?: string;
  city?: string;
  state?: string;
}

export interface FormDFixture {
  type?: 'D' | 'D/A';
  cik: string;
  name: string;
  city: string;
  state: string;
  entityType?: string;
  yearOfInc?: number;
  industry?: string;
  fundType?: string;
  securities?: string[];
  otherDescription?: string;
  offering: string;
  sold: string;
  previousAccession?: string;
  people?: Person[];
  signer?: { name: string; title: string };
  /** Other issuers of the offering (`issuerList`), each with its own CIK. */
  coIssuers?: { cik: string; name: string; city: string; state: string }[];
  /** `federalExemptionsExclusions` items; 06b unless said. */
  exemptions?: string[];
  /** `dateOfFirstSale/value`, or `yetToOccur`. */
  firstSale?: string;
  investors?: number;
}

export function formDXml(f: FormDFixture): string {
  const people = (f.people ?? [])
    .map(
      (p) => `        <relatedPersonInfo>
            <relatedPersonName>
                <firstName>${escape(p.first)}</firstName>${p.middle ? `\n                <middleName>${p.middle}</middleName>` : ''}
                <lastName>${escape(p.last)}</lastName>
            </relatedPersonName>
            <relatedPersonAddress>
                <street1>100 Main Street</street1>
                <city>${escape(p.city ?? f.city)}</city>
                <stateOrCountry>${p.state ?? f.state}</stateOrCountry>
                <stateOrCountryDescription>STATE</stateOrCountryDescription>
                <zipCode>00000</zipCode>
            </relatedPersonAddress>
            <relatedPersonRelationshipList>
${p.roles.map((r) => `                <relationship>${r}</relationship>`).join('\n')}
            </relatedPersonRelationshipList>${p.clarification ? `\n            <relationshipClarification>${escape(p.clarification)}</relationshipClarification>` : ''}
        </relatedPersonInfo>`,
    )
    .join('\n');
  const fund = f.fundType
    ? `\n            <investmentFundInfo>\n                <investmentFundType>${f.fundType}</investmentFundType>\n                <is40Act>false</is40Act>\n            </investmentFundInfo>`
    : '';
  const securities = (f.securities ?? ['isEquityType']).map((s) => `            <${s}>true</${s}>`).join('\n');
  const other = f.otherDescription
    ? `\n            <descriptionOfOtherType>${escape(f.otherDescription)}</descriptionOfOtherType>`
    : '';
  const amendment = f.previousAccession
    ? `<isAmendment>true</isAmendment>\n                <previousAccessionNumber>${f.previousAccession}</previousAccessionNumber>`
    : '<isAmendment>false</isAmendment>';
  const year = f.yearOfInc
    ? `<withinFiveYears>true</withinFiveYears>\n            <value>${f.yearOfInc}</value>`
    : '<overFiveYears>true</overFiveYears>';
  return `<?xml version="1.0"?>
<edgarSubmission>
    <schemaVersion>X0708</schemaVersion>
    <submissionType>${f.type ?? 'D'}</submissionType>
    <testOrLive>LIVE</testOrLive>
    <primaryIssuer>
        <cik>${f.cik}</cik>
        <entityName>${escape(f.name)}</entityName>
        <issuerAddress>
            <street1>1 Market Street</street1>
            <city>${escape(f.city)}</city>
            <stateOrCountry>${f.state}</stateOrCountry>
            <stateOrCountryDescription>STATE</stateOrCountryDescription>
            <zipCode>00000</zipCode>
        </issuerAddress>
        <issuerPhoneNumber>5555550100</issuerPhoneNumber>
        <jurisdictionOfInc>DELAWARE</jurisdictionOfInc>
        <issuerPreviousNameList>
            <value>None</value>
        </issuerPreviousNameList>
        <edgarPreviousNameList>
            <value>None</value>
        </edgarPreviousNameList>
        <entityType>${f.entityType ?? 'Corporation'}</entityType>
        <yearOfInc>
            ${year}
        </yearOfInc>
    </primaryIssuer>${
      f.coIssuers?.length
        ? `\n    <issuerList>\n${f.coIssuers
            .map(
              (co) => `        <issuer>
            <cik>${co.cik}</cik>
            <entityName>${escape(co.name)}</entityName>
            <issuerAddress>
                <street1>1 Market Street</street1>
                <city>${escape(co.city)}</city>
                <stateOrCountry>${co.state}</stateOrCountry>
                <stateOrCountryDescription>STATE</stateOrCountryDescription>
                <zipCode>00000</zipCode>
            </issuerAddress>
            <issuerPhoneNumber>5555550100</issuerPhoneNumber>
            <jurisdictionOfInc>DELAWARE</jurisdictionOfInc>
            <entityType>Limited Partnership</entityType>
            <yearOfInc>
                <withinFiveYears>true</withinFiveYears>
                <value>2025</value>
            </yearOfInc>
        </issuer>`,
            )
            .join('\n')}\n    </issuerList>`
        : ''
    }
    <relatedPersonsList>
${people}
    </relatedPersonsList>
    <offeringData>
        <industryGroup>
            <industryGroupType>${escape(f.industry ?? 'Other Technology')}</industryGroupType>${fund}
        </industryGroup>
        <issuerSize>
            <revenueRange>Decline to Disclose</revenueRange>
        </issuerSize>
        <federalExemptionsExclusions>
${(f.exemptions ?? ['06b']).map((item) => `            <item>${item}</item>`).join('\n')}
        </federalExemptionsExclusions>
        <typeOfFiling>
            <newOrAmendment>
                ${amendment}
            </newOrAmendment>
            <dateOfFirstSale>
                ${f.firstSale === 'yetToOccur' ? '<yetToOccur>true</yetToOccur>' : `<value>${f.firstSale ?? '2026-11-02'}</value>`}
            </dateOfFirstSale>
        </typeOfFiling>
        <durationOfOffering>
            <moreThanOneYear>false</moreThanOneYear>
        </durationOfOffering>
        <typesOfSecuritiesOffered>
${securities}${other}
        </typesOfSecuritiesOffered>
        <businessCombinationTransaction>
            <isBusinessCombinationTransaction>false</isBusinessCombinationTransaction>
        </businessCombinationTransaction>
        <minimumInvestmentAccepted>0</minimumInvestmentAccepted>
        <salesCompensationList></salesCompensationList>
        <offeringSalesAmounts>
            <totalOfferingAmount>${f.offering}</totalOfferingAmount>
            <totalAmountSold>${f.sold}</totalAmountSold>
            <totalRemaining>${f.offering === 'Indefinite' ? 'Indefinite' : Math.max(0, Number(f.offering) - Number(f.sold))}</totalRemaining>
        </offeringSalesAmounts>
        <investors>
            <hasNonAccreditedInvestors>false</hasNonAccreditedInvestors>
            <totalNumberAlreadyInvested>${f.investors ?? 12}</totalNumberAlreadyInvested>
        </investors>
        <salesCommissionsFindersFees>
            <salesCommissions>
                <dollarAmount>0</dollarAmount>
            </salesCommissions>
            <findersFees>
                <dollarAmount>0</dollarAmount>
            </findersFees>
        </salesCommissionsFindersFees>
        <useOfProceeds>
            <grossProceedsUsed>
                <dollarAmount>0</dollarAmount>
            </grossProceedsUsed>
        </useOfProceeds>
        <signatureBlock>
            <authorizedRepresentative>false</authorizedRepresentative>
            <signature>
                <issuerName>${escape(f.name)}</issuerName>
                <signatureName>/s/ ${escape(f.signer?.name ?? 'Pat Signer')}</signatureName>
                <nameOfSigner>${escape(f.signer?.name ?? 'Pat Signer')}</nameOfSigner>
                <signatureTitle>${escape(f.signer?.title ?? 'Secretary')}</signatureTitle>
                <signatureDate>2026-11-20</signatureDate>
            </signature>
        </signatureBlock>
    </offeringData>
</edgarSubmission>
`;
}

/** An XML answer as EDGAR sends it. */
export const xmlAnswer = (body: string, type = 'application/xml') => ({
  status: 200,
  headers: { 'content-type': type },
  body,
});
