import { startStack, type Stack } from '../setup/stack';
import { CompaniesHouse } from '../../src/sources/companies-house/companies-house';
import { createAccount } from '../setup/http';
import { allLeads, client, createSignal, evaluateNow, ingest, settled } from '../leads/fixtures';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import { startVendor, type VendorServer } from './vendors';
import { runSourceNow } from './source-runs';
import {
  appointmentList,
  companyProfile,
  filingHistory,
  officerEvent,
  startStreamServer,
  type StreamServer,
} from './companies-house-fixtures';

/**
 * UK directors as job changes (docs/sources/companies-house.md, "Job changes"): the officers
 * stream's appointments, their titles from `occupation`, the job before from the officer's own
 * appointment list (paged, 429, 404, malformed, a null company name), resignations recorded, and
 * a job-changes signal's lead delivered to a real webhook receiver.
 */

let stack: Stack;
let rest: VendorServer;
let stream: StreamServer;
let receiver: Receiver | undefined;

beforeAll(async () => {
  rest = await startVendor();
  stream = await startStreamServer();
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_CONTACT_EMAIL: 'registers-ops@leads.example.com',
      SOURCES_HOST_MAP: `api.company-information.service.gov.uk=${rest.origin},stream.companieshouse.gov.uk=${stream.origin}`,
      COMPANIES_HOUSE_API_KEY: 'rest-key-2',
      COMPANIES_HOUSE_STREAM_KEY: 'stream-key-2',
      COMPANIES_HOUSE_INTERVAL: '24h',
      COMPANIES_HOUSE_STREAM_READ_SECONDS: '2',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  await rest?.close();
  await stream?.close();
});

const FILE_STARTED = Date.now();
const daysAgo = (days: number) => new Date(FILE_STARTED - days * 86_400_000).toISOString().slice(0, 10);
const slashMonth = (day: string) => `${day.slice(5, 7)}/${day.slice(0, 4)}`;
const runSource = () => runSourceNow(stack, 'companies-house');
const listPath = (officerId: string, start: number) =>
  `/officers/${officerId}/appointments?items_per_page=50&start_index=${start}`;

const OSPREY = '06000006';
const FALCON = '07000007';

test('a new director becomes a job change with the job before from their appointment list, and a CFO signal delivers it as a lead', async () => {
  await ingest(stack, [
    { kind: 'company', id: 'co-osprey', name: 'Osprey Payments', hqCountryCode: 'GB', hqCity: 'Leeds' } as never,
  ]);
  const account = await createAccount(stack, { credits: 100 });
  receiver = await startReceiver({ secret: account.webhookSecret });
  const api = client(stack, account);
  const signal = await createSignal(api, 'job-changes', {
    name: 'UK finance chiefs',
    status: 'active',
    webhookUrl: receiver.url,
    config: { jobTitles: ['Chief Financial Officer'] },
  });
  await settled(stack, signal.id);

  const appointed = daysAgo(5);
  stream.plays.push({
    lines: [
      officerEvent({
        timepoint: 300,
        number: OSPREY,
        appointmentId: 'apptMei',
        name: 'NG, Mei',
        role: 'director',
        appointedOn: appointed,
        occupation: 'CHIEF FINANCIAL OFFICER',
        officerId: 'offMei',
      }),
      // No occupation, and an appointment list Companies House does not have (404).
      officerEvent({
        timepoint: 301,
        number: OSPREY,
        appointmentId: 'apptTom',
        name: 'LAKE, Tom',
        role: 'director',
        appointedOn: appointed,
        occupation: null,
        officerId: 'offTom',
      }),
      // An appointment list that is cut off mid-document.
      officerEvent({
        timepoint: 302,
        number: OSPREY,
        appointmentId: 'apptKay',
        name: 'RIVERS, Kay',
        role: 'director',
        appointedOn: appointed,
        occupation: 'Director',
        officerId: 'offKay',
      }),
      // A null name: that event alone is not understood.
      officerEvent({
        timepoint: 303,
        number: OSPREY,
        appointmentId: 'apptNoName',
        name: null as never,
        role: 'director',
        appointedOn: appointed,
      }),
    ],
    then: 'close',
  });
  rest.answer(`/company/${OSPREY}`, { json: companyProfile(OSPREY, 'OSPREY PAYMENTS LTD') });
  rest.answer(`/company/${OSPREY}/filing-history?category=capital&items_per_page=100`, { json: filingHistory([]) });
  // Two pages of two (total_results 4); the first is refused once with a Retry-After.
  let firstPageAsked = 0;
  rest.answer(listPath('offMei', 0), () =>
    ++firstPageAsked === 1
      ? { status: 429, headers: { 'retry-after': '1' } }
      : {
          json: appointmentList(
            'offMei',
            'NG, Mei',
            [
              { number: OSPREY, companyName: 'OSPREY PAYMENTS LTD', appointedOn: appointed },
              // Ended more than a year before: not the job before.
              {
                number: '08000008',
                companyName: 'HARRIER HOLDINGS LIMITED',
                occupation: 'Accountant',
                appointedOn: '2012-02-01',
                resignedOn: '2021-06-30',
              },
            ],
            { start: 0, total: 4, perPage: 2 },
          ),
        },
  );
  rest.answer(listPath('offMei', 2), {
    json: appointmentList(
      'offMei',
      'NG, Mei',
      [
        {
          number: FALCON,
          companyName: 'FALCON FOODS LIMITED',
          occupation: 'Finance Director',
          appointedOn: '2019-09-01',
          resignedOn: daysAgo(40),
        },
        // The latest of all, but with a null company name: skipped alone, not its page.
        { number: '09000009', companyName: null, appointedOn: daysAgo(20) },
      ],
      { start: 2, total: 4, perPage: 2 },
    ),
  });
  rest.answer(listPath('offKay', 0), {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"items":[{"appointed_to":{"company_name":"KITE',
  });

  const status = await runSource();

  expect(firstPageAsked).toBe(2);
  expect(rest.requests.filter((r) => r.path.startsWith('/officers/')).map((r) => r.path)).toEqual([
    listPath('offMei', 0),
    // The 429's retry runs the company's appointments again.
    listPath('offMei', 0),
    listPath('offMei', 2),
    listPath('offTom', 0),
    listPath('offKay', 0),
  ]);
  const jobChanges = await stack.db.query(
    `SELECT e.id, e.person_id, e.data, p.first_name, p.last_name, p.title, p.persona
     FROM events e JOIN people p ON p.id = e.person_id WHERE e.type = 'job_change' ORDER BY e.id`,
  );
  const common = {
    new_company: 'Osprey Payments',
    new_job_started_on: slashMonth(appointed),
    new_job_start_month: appointed.slice(0, 7),
    change_type: 'company',
  };
  expect(jobChanges).toEqual([
    {
      id: 'companies-house:job-change:apptKay',
      person_id: 'ch-appointment-apptKay',
      data: { ...common, previous_title: '', previous_company: '', new_title: 'Director' },
      first_name: 'Kay',
      last_name: 'Rivers',
      title: 'Director',
      persona: null,
    },
    {
      id: 'companies-house:job-change:apptMei',
      person_id: 'ch-appointment-apptMei',
      data: {
        ...common,
        previous_title: 'Finance Director',
        previous_company: 'Falcon Foods Limited',
        new_title: 'Chief Financial Officer',
      },
      first_name: 'Mei',
      last_name: 'Ng',
      title: 'Chief Financial Officer',
      persona: 'Chief Financial Officer',
    },
    {
      id: 'companies-house:job-change:apptTom',
      person_id: 'ch-appointment-apptTom',
      data: { ...common, previous_title: '', previous_company: '', new_title: 'Director' },
      first_name: 'Tom',
      last_name: 'Lake',
      title: 'Director',
      persona: null,
    },
  ]);
  // Each appointment is also a new decision maker of the company, for a watchlist on it.
  expect(
    await stack.db.query(
      `SELECT id FROM events WHERE type = 'new_decision_makers' AND company_id = 'co-osprey' ORDER BY id`,
    ),
  ).toEqual([
    { id: 'companies-house:appointment:apptKay' },
    { id: 'companies-house:appointment:apptMei' },
    { id: 'companies-house:appointment:apptTom' },
  ]);
  // The null name and the cut-off appointment list are named; nothing else was lost over them.
  expect(status).toMatchObject({ recordsIngested: 6, errors: 2 });
  const lastErrors = await stack.db.query(`SELECT last_error FROM sources WHERE name = 'companies-house'`);
  expect(lastErrors[0].last_error).toMatch(/officers stream: 1 event\(s\) not understood|appointments of/);

  // The job-changes signal makes a lead of the CFO, and the receiver gets it signed.
  await evaluateNow(stack, signal.id);
  const leads = await allLeads(api, signal.id);
  expect(leads).toHaveLength(1);
  const [delivered] = await receiver.waitFor(1);
  expect(delivered!.verified).toBe(true);
  expect(delivered!.body.signal).toEqual({
    id: signal.id,
    name: 'UK finance chiefs',
    type: 'job_changes',
    last_signal: 'Job Change',
    last_signal_date: appointed,
    previous_title: 'Finance Director',
    previous_company: 'Falcon Foods Limited',
    new_title: 'Chief Financial Officer',
    new_company: 'Osprey Payments',
    new_job_started_on: slashMonth(appointed),
    new_job_start_month: appointed.slice(0, 7),
    change_type: 'company',
  });
  expect(delivered!.body.contact).toMatchObject({
    first_name: 'Mei',
    last_name: 'Ng',
    title: 'Chief Financial Officer',
    matched_persona: 'Chief Financial Officer',
  });
  expect(delivered!.body.company).toMatchObject({ name: 'Osprey Payments' });
});

test('a resignation at a known company is recorded and makes no lead; an appointment read again changes nothing', async () => {
  const before = await stack.db.query(`SELECT count(*)::int AS n FROM events`);
  stream.plays.push({
    lines: [
      officerEvent({
        timepoint: 400,
        number: OSPREY,
        appointmentId: 'apptOld',
        name: 'BIRCH, Olive',
        role: 'director',
        appointedOn: '2016-03-01',
        resignedOn: daysAgo(1),
        occupation: 'Chief Executive Officer',
      }),
      // At a company the store does not know: not recorded.
      officerEvent({
        timepoint: 401,
        number: '09900099',
        appointmentId: 'apptElsewhere',
        name: 'ASH, Rowan',
        role: 'director',
        appointedOn: '2018-01-01',
        resignedOn: daysAgo(1),
      }),
      officerEvent({
        timepoint: 402,
        number: OSPREY,
        appointmentId: 'apptTom',
        name: 'LAKE, Tom',
        role: 'director',
        appointedOn: daysAgo(5),
        occupation: null,
        officerId: 'offTom',
      }),
    ],
    then: 'close',
  });
  await runSource();

  expect(
    await stack.db.query(
      `SELECT appointment_id, company_number, name, officer_role, to_char(resigned_on, 'YYYY-MM-DD') AS resigned_on
       FROM companies_house_resignations`,
    ),
  ).toEqual([
    {
      appointment_id: 'apptOld',
      company_number: OSPREY,
      name: 'BIRCH, Olive',
      officer_role: 'director',
      resigned_on: daysAgo(1),
    },
  ]);
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM events`)).toEqual(before);
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM people WHERE last_name = 'Birch'`)).toEqual([{ n: 0 }]);
});

test("without the stream key, a linked company's officer list gives its new directors (paged, a null name skipped alone) and records its resignations", async () => {
  const MERLIN = '05500055';
  await ingest(stack, [{ kind: 'company', id: 'co-merlin', name: 'Merlin Robotics', hqCountryCode: 'GB' } as never]);
  await stack.db.query(
    `INSERT INTO companies_house_companies (company_number, company_id, registered_name, matched_by)
     VALUES ($1, 'co-merlin', 'MERLIN ROBOTICS LIMITED', 'name')`,
    [MERLIN],
  );
  const source = new CompaniesHouse(stack.db, stack.services.ingestion, stack.services.politeFetch, {
    ...stack.config,
    COMPANIES_HOUSE_STREAM_KEY: undefined,
  });
  // The officer list's items are the stream's `data`, each with its `links.self`.
  const item = (fixture: Parameters<typeof officerEvent>[0]) => JSON.parse(officerEvent(fixture)).data;
  const officersPath = (start: number) =>
    `/company/${MERLIN}/officers?items_per_page=50&start_index=${start}&order_by=appointed_on`;
  const appointed = daysAgo(4);
  const page = (items: unknown[], start: number) => ({
    active_count: 2,
    resigned_count: 1,
    etag: `officers-${start}`,
    items,
    items_per_page: 2,
    kind: 'officer-list',
    links: { self: `/company/${MERLIN}/officers` },
    start_index: start,
    total_results: 3,
  });
  rest.answer(officersPath(0), {
    json: page(
      [
        item({
          timepoint: 0,
          number: MERLIN,
          appointmentId: 'apptIda',
          name: 'HAWK, Ida',
          role: 'director',
          appointedOn: appointed,
          occupation: 'Chief Technology Officer',
          officerId: 'offIda',
        }),
        {
          ...item({
            timepoint: 0,
            number: MERLIN,
            appointmentId: 'apptNull',
            name: 'X',
            role: 'director',
            appointedOn: appointed,
          }),
          name: null,
        },
      ],
      0,
    ),
  });
  rest.answer(officersPath(2), {
    json: page(
      [
        item({
          timepoint: 0,
          number: MERLIN,
          appointmentId: 'apptBen',
          name: 'OWL, Ben',
          role: 'director',
          appointedOn: '2015-06-01',
          resignedOn: daysAgo(3),
        }),
      ],
      2,
    ),
  });

  const result = await source.sync(`3-filings-${MERLIN}`);

  expect(result).toEqual({ records: 2, dropped: 0 });
  expect(rest.requests.filter((r) => r.path.startsWith(`/company/${MERLIN}/officers`)).map((r) => r.path)).toEqual([
    officersPath(0),
    officersPath(2),
  ]);
  expect(
    await stack.db.query(
      `SELECT e.type, e.data->>'new_title' AS title, p.first_name, p.last_name FROM events e
       JOIN people p ON p.id = e.person_id WHERE e.company_id = 'co-merlin' ORDER BY e.type`,
    ),
  ).toEqual([
    { type: 'job_change', title: 'Chief Technology Officer', first_name: 'Ida', last_name: 'Hawk' },
    { type: 'new_decision_makers', title: null, first_name: 'Ida', last_name: 'Hawk' },
  ]);
  expect(
    await stack.db.query(`SELECT appointment_id FROM companies_house_resignations WHERE company_number = $1`, [MERLIN]),
  ).toEqual([{ appointment_id: 'apptBen' }]);
});
