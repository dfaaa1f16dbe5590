/**
 * SEC EDGAR documents of the sec-filings source as EDGAR serves them, written from its formats:
 * the current-filings Atom feed per form type, an owner's company browse feed
 * (`action=getcompany&output=atom`), a Form 3 `ownershipDocument` (Ownership XML technical
 * specification v3) inside its complete submission `<accession>.txt`, a filing header
 * `<accession>.hdr.sgml` and an 8-K's complete submission. What filers really send beyond the
 * examples is in here too: names in other orders, flags as `true`, empty titles, ISO-8859-1.
 */
import type { FeedEntry } from './sec-fixtures';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const filingsFeedPath = (form: string, start = 0) =>
  `/cgi-bin/browse-edgar?action=getcurrent&type=${encodeURIComponent(form)}&company=&dateb=&owner=${form === '3' ? 'only' : 'include'}&start=${start}&count=100&output=atom`;
export const ownerFeedPath = (ownerCik: string, start = 0) =>
  `/cgi-bin/browse-edgar?action=getcompany&CIK=${ownerCik}&type=3&dateb=&owner=include&start=${start}&count=40&output=atom`;
export const submissionPath = (cik: string, accession: string) =>
  `/Archives/edgar/data/${Number(cik)}/${accession}.txt`;
export const headerPath = (cik: string, accession: string) =>
  `/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}.hdr.sgml`;
export const FEED_FORMS = ['3', '8-K', 'SC TO-T', 'SC 14D9', 'DEFM14A', 'S-4', '425'];

export type { FeedEntry };

export interface OwnerFixture {
  cik: string;
  /** As EDGAR writes it: "DOE JANE Q". */
  name: string;
  director?: boolean;
  officer?: boolean;
  tenPercent?: boolean;
  title?: string;
  /** How the filer wrote the flags. */
  flags?: 'digits' | 'words';
  city?: string;
  state?: string;
}

export interface Form3Fixture {
  issuer: { cik: string; name: string; ticker?: string };
  period: string;
  owners: OwnerFixture[];
  documentType?: string;
}

export function ownershipXml(f: Form3Fixture): string {
  const owners = f.owners
    .map((o) => {
      const flag = (on?: boolean) => (o.flags === 'words' ? (on ? 'true' : 'false') : on ? '1' : '0');
      return `    <reportingOwner>
        <reportingOwnerId>
            <rptOwnerCik>${o.cik}</rptOwnerCik>
            <rptOwnerName>${escape(o.name)}</rptOwnerName>
        </reportingOwnerId>
        <reportingOwnerAddress>
            <rptOwnerStreet1>C/O ${escape(f.issuer.name.toUpperCase())}</rptOwnerStreet1>
            <rptOwnerStreet2></rptOwnerStreet2>
            <rptOwnerCity>${o.city ?? 'SAN MATEO'}</rptOwnerCity>
            <rptOwnerState>${o.state ?? 'CA'}</rptOwnerState>
            <rptOwnerZipCode>94402</rptOwnerZipCode>
        </reportingOwnerAddress>
        <reportingOwnerRelationship>
            <isDirector>${flag(o.director)}</isDirector>
            <isOfficer>${flag(o.officer)}</isOfficer>
            <isTenPercentOwner>${flag(o.tenPercent)}</isTenPercentOwner>
            <isOther>0</isOther>
            <officerTitle>${escape(o.title ?? '')}</officerTitle>
            <otherText></otherText>
        </reportingOwnerRelationship>
    </reportingOwner>`;
    })
    .join('\n');
  return `<?xml version="1.0"?>
<ownershipDocument>
    <schemaVersion>X0206</schemaVersion>
    <documentType>${f.documentType ?? '3'}</documentType>
    <periodOfReport>${f.period}</periodOfReport>
    <noSecuritiesOwned>0</noSecuritiesOwned>
    <issuer>
        <issuerCik>${f.issuer.cik}</issuerCik>
        <issuerName>${escape(f.issuer.name)}</issuerName>
        <issuerTradingSymbol>${f.issuer.ticker ?? 'TICK'}</issuerTradingSymbol>
    </issuer>
${owners}
    <nonDerivativeTable>
        <nonDerivativeHolding>
            <securityTitle><value>Class A Common Stock</value></securityTitle>
            <postTransactionAmounts><sharesOwnedFollowingTransaction><value>12500</value></sharesOwnedFollowingTransaction></postTransactionAmounts>
            <ownershipNature><directOrIndirectOwnership><value>D</value></directOrIndirectOwnership></ownershipNature>
        </nonDerivativeHolding>
    </nonDerivativeTable>
    <remarks></remarks>
    <ownerSignature>
        <signatureName>/s/ Travis Shrout, Attorney-in-Fact</signatureName>
        <signatureDate>${f.period}</signatureDate>
    </ownerSignature>
</ownershipDocument>`;
}

/** The complete submission of a Form 3: its SEC header (reporting owner and issuer) and the XML document. */
export function form3Submission(accession: string, filedOn: string, f: Form3Fixture): string {
  const day = filedOn.replace(/-/g, '');
  const owner = f.owners[0]!;
  return `<SEC-DOCUMENT>${accession}.txt : ${day}
<SEC-HEADER>${accession}.hdr.sgml : ${day}
<ACCEPTANCE-DATETIME>${day}173012
ACCESSION NUMBER:\t\t${accession}
CONFORMED SUBMISSION TYPE:\t3
PUBLIC DOCUMENT COUNT:\t\t1
CONFORMED PERIOD OF REPORT:\t${f.period.replace(/-/g, '')}
FILED AS OF DATE:\t\t${day}
DATE AS OF CHANGE:\t\t${day}

REPORTING-OWNER:\t

\tOWNER DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\t${owner.name}
\t\tCENTRAL INDEX KEY:\t\t\t${owner.cik}

ISSUER:\t\t

\tCOMPANY DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\t${f.issuer.name.toUpperCase()}
\t\tCENTRAL INDEX KEY:\t\t\t${f.issuer.cik}
</SEC-HEADER>
<DOCUMENT>
<TYPE>3
<SEQUENCE>1
<FILENAME>wf-form3_${day}.xml
<DESCRIPTION>FORM 3 SUBMISSION
<TEXT>
<XML>
${ownershipXml(f)}
</XML>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`;
}

/** An owner's filings as the company browse feed lists them, newest first. */
export function ownerFeed(
  owner: { cik: string; name: string },
  filings: { accession: string; form: string; filedOn: string }[],
): string {
  const entries = filings
    .map(
      (f) => `<entry>
<category label="form type" scheme="https://www.sec.gov/" term="${escape(f.form)}"/>
<content type="text/xml">
<accession-number>${f.accession}</accession-number>
<act>34</act>
<file-number>001-39504</file-number>
<filing-date>${f.filedOn}</filing-date>
<filing-href>https://www.sec.gov/Archives/edgar/data/${Number(owner.cik)}/${f.accession.replace(/-/g, '')}/${f.accession}-index.htm</filing-href>
<filing-type>${escape(f.form)}</filing-type>
<form-name>Initial statement of beneficial ownership of securities</form-name>
<size>5 KB</size>
</content>
<id>urn:tag:sec.gov,2008:accession-number=${f.accession}</id>
<link href="https://www.sec.gov/Archives/edgar/data/${Number(owner.cik)}/${f.accession.replace(/-/g, '')}/${f.accession}-index.htm" rel="alternate" type="text/html"/>
<summary type="html"> &lt;b&gt;Filed:&lt;/b&gt; ${f.filedOn} &lt;b&gt;AccNo:&lt;/b&gt; ${f.accession} &lt;b&gt;Size:&lt;/b&gt; 5 KB</summary>
<title>${escape(f.form)}  - Initial statement of beneficial ownership of securities</title>
<updated>${f.filedOn}T18:04:11-05:00</updated>
</entry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<feed xmlns="http://www.w3.org/2005/Atom">
<author><email>webmaster@sec.gov</email><name>Webmaster</name></author>
<company-info>
<addresses><address type="mailing"><city>SAN MATEO</city><state>CA</state></address></addresses>
<cik>${owner.cik}</cik>
<conformed-name>${escape(owner.name)}</conformed-name>
<state-location>CA</state-location>
</company-info>
${entries}
<id>https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&amp;CIK=${owner.cik}</id>
<link href="https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&amp;CIK=${owner.cik}&amp;type=3" rel="alternate" type="text/html"/>
<title>${escape(owner.name)}  (${owner.cik})</title>
<updated>2026-11-25T18:04:11-05:00</updated>
</feed>
`;
}

export interface PartyFixture {
  cik: string;
  name: string;
  city?: string;
  state?: string;
}

const party = (tag: string, p: PartyFixture) => `<${tag}>
<COMPANY-DATA>
<CONFORMED-NAME>${p.name}
<CIK>${p.cik}
<ASSIGNED-SIC>7372
<IRS-NUMBER>943385011
<STATE-OF-INCORPORATION>DE
<FISCAL-YEAR-END>1231
</COMPANY-DATA>
<FILING-VALUES>
<FORM-TYPE>SC TO-T
<ACT>34
<FILE-NUMBER>005-91234
<FILM-NUMBER>261234567
</FILING-VALUES>
<BUSINESS-ADDRESS>
<STREET1>100 MAIN STREET
<CITY>${p.city ?? 'WILMINGTON'}
<STATE>${p.state ?? 'DE'}
<ZIP>19801
<PHONE>302-555-0100
</BUSINESS-ADDRESS>
<MAIL-ADDRESS>
<STREET1>PO BOX 1
<CITY>DOVER
<STATE>DE
<ZIP>19901
</MAIL-ADDRESS>
</${tag}>`;

/** A filing's `.hdr.sgml`: its type, items (8-K), period and parties as SGML tags. */
export function headerSgml(h: {
  accession: string;
  form: string;
  filedOn: string;
  items?: string[];
  period?: string;
  subject?: PartyFixture;
  filedBy?: PartyFixture[];
  filer?: PartyFixture;
}): string {
  const day = h.filedOn.replace(/-/g, '');
  return [
    `<SEC-HEADER>${h.accession}.hdr.sgml : ${day}`,
    `<ACCEPTANCE-DATETIME>${day}161502`,
    `<ACCESSION-NUMBER>${h.accession}`,
    `<TYPE>${h.form}`,
    `<PUBLIC-DOCUMENT-COUNT>4`,
    ...(h.period ? [`<PERIOD>${h.period.replace(/-/g, '')}`] : []),
    ...(h.items ?? []).map((item) => `<ITEMS>${item}`),
    `<FILING-DATE>${day}`,
    `<DATE-OF-FILING-DATE-CHANGE>${day}`,
    ...(h.filer ? [party('FILER', h.filer)] : []),
    ...(h.subject ? [party('SUBJECT-COMPANY', h.subject)] : []),
    ...(h.filedBy ?? []).map((p) => party('FILED-BY', p)),
    `</SEC-HEADER>`,
    '',
  ].join('\n');
}

/** An 8-K's complete submission: the `.txt` header (items by description) and the 8-K document as HTML. */
export function currentReportSubmission(h: {
  accession: string;
  filedOn: string;
  filer: PartyFixture;
  itemsText: { item: string; body: string }[];
}): string {
  const day = h.filedOn.replace(/-/g, '');
  const html = h.itemsText
    .map(
      ({ item, body }) =>
        `<p style="margin:0"><font style="font-family:Times New Roman"><b>Item&#160;${item}</b></font></p>\n<p style="margin:0"><font>${body}</font></p>`,
    )
    .join('\n');
  return `<SEC-DOCUMENT>${h.accession}.txt : ${day}
<SEC-HEADER>${h.accession}.hdr.sgml : ${day}
ACCESSION NUMBER:\t\t${h.accession}
CONFORMED SUBMISSION TYPE:\t8-K
PUBLIC DOCUMENT COUNT:\t\t2
CONFORMED PERIOD OF REPORT:\t${day}
ITEM INFORMATION:\t\tDeparture of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers: Compensatory Arrangements of Certain Officers
FILED AS OF DATE:\t\t${day}

FILER:

\tCOMPANY DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\t${h.filer.name}
\t\tCENTRAL INDEX KEY:\t\t\t${h.filer.cik}
</SEC-HEADER>
<DOCUMENT>
<TYPE>8-K
<SEQUENCE>1
<FILENAME>d123456d8k.htm
<DESCRIPTION>8-K
<TEXT>
<html><head><title>8-K</title></head><body>
<p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p>
${html}
<p>SIGNATURES</p>
</body></html>
</TEXT>
</DOCUMENT>
<DOCUMENT>
<TYPE>EX-99.1
<SEQUENCE>2
<FILENAME>d123456dex991.htm
<TEXT>
<html><body><p>Press release: the Board also appointed Someone Else as Chief Marketing Officer.</p></body></html>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`;
}

export const textAnswer = (body: string) => ({ text: body, contentType: 'text/plain' });
