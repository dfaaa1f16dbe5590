import { ownerNameParts, parseOwnerFilings, parseOwnershipReport } from '../../src/sources/sec-filings/ownership';
import { parseFilingHeader } from '../../src/sources/sec-filings/filing-header';
import { currentReportText, statedAppointments, statedDeal } from '../../src/sources/sec-filings/current-report';
import { dealSides } from '../../src/sources/sec-filings/sec-filings';
import { dealPartyKey } from '../../src/services/ingestion/deal-sightings';
import { currentReportSubmission, form3Submission, headerSgml, ownerFeed } from './sec-filings-fixtures';

test('a Form 3 submission: issuer, joint owners with flags as digits or words, the event date', () => {
  const parsed = parseOwnershipReport(
    form3Submission('0001209191-26-000101', '2026-11-20', {
      issuer: { cik: '0001640147', name: 'Snowflake Inc.', ticker: 'SNOW' },
      period: '2026-11-16',
      owners: [
        { cik: '0001246215', name: 'GARRETT MARK', director: true },
        { cik: '0001900777', name: 'Doe, Jane Q.', officer: true, title: 'EVP & CFO', flags: 'words' },
        { cik: '0001900778', name: 'SEQUOIA CAPITAL FUND XV, L.P.', tenPercent: true },
      ],
    }),
  );
  if ('problem' in parsed) throw new Error(parsed.problem);
  expect(parsed.report).toMatchObject({
    documentType: '3',
    periodOfReport: '2026-11-16',
    issuer: { cik: '0001640147', name: 'Snowflake Inc.', ticker: 'SNOW' },
  });
  expect(
    parsed.report.owners.map((o) => [o.name, o.isDirector, o.isOfficer, o.isTenPercentOwner, o.officerTitle]),
  ).toEqual([
    ['GARRETT MARK', true, false, false, null],
    ['Doe, Jane Q.', false, true, false, 'EVP & CFO'],
    ['SEQUOIA CAPITAL FUND XV, L.P.', false, false, true, null],
  ]);
});

test('a malformed or foreign document is a problem, not an exception', () => {
  expect(parseOwnershipReport('<XML><ownershipDocument><issuer></XML>')).toEqual({
    problem: expect.stringContaining('not well-formed XML'),
  });
  expect(parseOwnershipReport('<?xml version="1.0"?><edgarSubmission/>')).toEqual({
    problem: 'not an ownership report: no ownershipDocument element',
  });
  expect(parseFilingHeader('<html><body>Not here</body></html>')).toEqual({
    problem: 'not an EDGAR filing header: no type and no party',
  });
});

test('reporting owners in the orders filers write them; organisations are no people', () => {
  expect(ownerNameParts('GARRETT MARK')).toEqual({ firstName: 'MARK', lastName: 'GARRETT', suffix: null });
  expect(ownerNameParts('SMITH JOHN A JR')).toEqual({ firstName: 'JOHN', lastName: 'SMITH', suffix: 'JR' });
  expect(ownerNameParts('VAN DER BERG ANNA')).toEqual({ firstName: 'ANNA', lastName: 'VAN DER BERG', suffix: null });
  expect(ownerNameParts('Doe, Jane Q.')).toEqual({ firstName: 'Jane', lastName: 'Doe', suffix: null });
  expect(ownerNameParts('Jane Q. Doe')).toEqual({ firstName: 'Jane', lastName: 'Doe', suffix: null });
  expect(ownerNameParts('SEQUOIA CAPITAL FUND XV, L.P.')).toBeNull();
  expect(ownerNameParts('Blackstone Holdings III L.P.')).toBeNull();
  expect(ownerNameParts('MADONNA')).toBeNull();
});

test("an owner's filing list: accession, form and date of each entry", () => {
  const listed = parseOwnerFilings(
    ownerFeed({ cik: '0001246215', name: 'GARRETT MARK' }, [
      { accession: '0001209191-26-000101', form: '3', filedOn: '2026-11-20' },
      { accession: '0001209191-21-000033', form: '3/A', filedOn: '2021-03-02' },
    ]),
  );
  expect(listed).toEqual({
    listed: 2,
    filings: [
      { accession: '0001209191-26-000101', form: '3', filedOn: '2026-11-20' },
      { accession: '0001209191-21-000033', form: '3/A', filedOn: '2021-03-02' },
    ],
  });
});

test('a tender offer header: the subject company is the acquiree, the bidder (not its merger vehicle) the acquirer', () => {
  const parsed = parseFilingHeader(
    headerSgml({
      accession: '0001193125-26-300001',
      form: 'SC TO-T',
      filedOn: '2026-11-24',
      subject: { cik: '0001700001', name: 'KESTREL THERAPEUTICS, INC.', city: 'BOSTON', state: 'MA' },
      filedBy: [
        { cik: '0001900991', name: 'Osprey Merger Sub, Inc.' },
        { cik: '0000078003', name: 'OSPREY PHARMA CORP', city: 'NEW YORK', state: 'NY' },
      ],
    }),
  );
  if ('problem' in parsed) throw new Error(parsed.problem);
  expect(parsed.header.form).toBe('SC TO-T');
  expect(parsed.header.parties.map((p) => [p.role, p.cik, p.name, p.city, p.stateOrCountry])).toEqual([
    ['subject', '0001700001', 'KESTREL THERAPEUTICS, INC.', 'BOSTON', 'MA'],
    ['filed-by', '0001900991', 'Osprey Merger Sub, Inc.', 'WILMINGTON', 'DE'],
    ['filed-by', '0000078003', 'OSPREY PHARMA CORP', 'NEW YORK', 'NY'],
  ]);
  expect(dealSides('SC TO-T', parsed.header).map((s) => [s.party.cik, s.role, s.counterparty])).toEqual([
    ['0001700001', 'acquiree', 'OSPREY PHARMA CORP'],
    ['0000078003', 'acquirer', 'KESTREL THERAPEUTICS, INC.'],
  ]);
});

test("an 8-K: items from the .hdr.sgml's numbers and from the .txt header's descriptions; the 8-K document's text", () => {
  const sgml = parseFilingHeader(
    headerSgml({
      accession: '0001193125-26-400001',
      form: '8-K',
      filedOn: '2026-11-24',
      period: '2026-11-20',
      items: ['5.02', '9.01'],
      filer: { cik: '0001700002', name: 'Plover Systems Inc' },
    }),
  );
  if ('problem' in sgml) throw new Error(sgml.problem);
  expect(sgml.header).toMatchObject({
    form: '8-K',
    items: ['5.02', '9.01'],
    period: '2026-11-20',
    filedOn: '2026-11-24',
  });
  const submission = currentReportSubmission({
    accession: '0001193125-26-400001',
    filedOn: '2026-11-24',
    filer: { cik: '0001700002', name: 'PLOVER SYSTEMS INC' },
    itemsText: [
      {
        item: '5.02',
        body: 'On November 20, 2026, the Board appointed Dana K. Whitfield, age 47, as Chief Financial Officer of the Company.',
      },
    ],
  });
  const txt = parseFilingHeader(submission);
  if ('problem' in txt) throw new Error(txt.problem);
  expect(txt.header).toMatchObject({ form: '8-K', items: ['5.02'], period: '2026-11-24' });
  expect(txt.header.parties).toEqual([
    expect.objectContaining({ role: 'filer', cik: '0001700002', name: 'PLOVER SYSTEMS INC' }),
  ]);
  const text = currentReportText(submission)!;
  expect(text).toContain('Item 5.02');
  // The press release exhibit is not the report.
  expect(text).not.toContain('Someone Else');
});

test('appointments are read only where the text states them in a documented pattern', () => {
  expect(
    statedAppointments('the Board appointed Dana K. Whitfield, age 47, as Chief Financial Officer of the Company.'),
  ).toEqual([{ firstName: 'Dana', lastName: 'Whitfield', title: 'Chief Financial Officer' }]);
  expect(
    statedAppointments(
      'Mr. Luis Ortega, 52, was appointed as the Company’s Chief Operating Officer, effective December 1, 2026.',
    ),
  ).toEqual([{ firstName: 'Luis', lastName: 'Ortega', title: 'Chief Operating Officer' }]);
  expect(statedAppointments('the Board elected Priya Raman to the Board, effective immediately.')).toEqual([
    { firstName: 'Priya', lastName: 'Raman', title: 'Director' },
  ]);
  // A departure, and an appointment with no role named, name nobody.
  expect(statedAppointments('John Smith notified the Company of his resignation as Chief Executive Officer.')).toEqual(
    [],
  );
  expect(statedAppointments('the Board appointed Ernst & Young LLP as its auditor.')).toEqual([]);
});

test('an 8-K states a deal: a merger agreement under Item 1.01, a completed acquisition under Item 2.01', () => {
  const merger = statedDeal(
    'Item 1.01 Entry into a Material Definitive Agreement.\nOn November 23, 2026, the Company entered into an Agreement and Plan of Merger (the “Merger Agreement”) by and among the Company, Osprey Pharma Corp., a Delaware corporation (“Parent”), and Osprey Merger Sub, Inc.\nItem 9.01 Exhibits',
    '1.01',
  );
  expect(merger).toEqual({ dealType: 'Merger', role: 'acquiree', counterparty: 'Osprey Pharma Corp.' });
  expect(
    statedDeal(
      'Item 2.01 Completion.\nOn November 20, 2026, the Company completed its previously announced acquisition of Finch Analytics, Inc. (“Finch”).',
      '2.01',
    ),
  ).toEqual({ dealType: 'Acquisition', role: 'acquirer', counterparty: 'Finch Analytics, Inc.' });
  expect(
    statedDeal(
      'Item 1.01 Entry into a Material Definitive Agreement.\nThe Company entered into a credit agreement.',
      '1.01',
    ),
  ).toBeNull();
});

test('deal parties compare without legal words, punctuation and case', () => {
  expect(dealPartyKey('OSPREY PHARMA CORP')).toBe('osprey pharma');
  expect(dealPartyKey('Osprey Pharma Corporation')).toBe('osprey pharma');
  expect(dealPartyKey('Osprey Merger Sub, Inc.')).toBe('osprey');
  expect(dealPartyKey('Inc.')).toBeNull();
});
