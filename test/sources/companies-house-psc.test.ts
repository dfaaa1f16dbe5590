import { startStack, type Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import { allLeads, client, createSignal, evaluateNow, ingest, settled } from '../leads/fixtures';
import { startVendor, type VendorServer } from './vendors';
import { runSourceNow } from './source-runs';
import {
  companyProfile,
  filingHistory,
  pscEvent,
  startStreamServer,
  type StreamServer,
} from './companies-house-fixtures';

/**
 * Deals from the register of persons with significant control (docs/sources/companies-house.md,
 * "Deals"): the PSC stream's new corporate owners of more than 75 % become `mergers_acquisitions`
 * events of the company bought and of a known buyer; everything else in the stream is no deal.
 */

let stack: Stack;
let rest: VendorServer;
let stream: StreamServer;

beforeAll(async () => {
  rest = await startVendor();
  stream = await startStreamServer();
  stack = await startStack({
    env: {
      SIGNAL_EVALUATION_INTERVAL: '1h',
      SOURCES_CONTACT_EMAIL: 'registers-ops@leads.example.com',
      SOURCES_HOST_MAP: `api.company-information.service.gov.uk=${rest.origin},stream.companieshouse.gov.uk=${stream.origin}`,
      COMPANIES_HOUSE_API_KEY: 'rest-key-3',
      COMPANIES_HOUSE_STREAM_KEY: 'stream-key-3',
      COMPANIES_HOUSE_INTERVAL: '24h',
      COMPANIES_HOUSE_STREAM_READ_SECONDS: '2',
    },
  });
  await stack.services.sources.schedules.ensure(stack.services.sources.names);
});

afterAll(async () => {
  await stack?.stop();
  await rest?.close();
  await stream?.close();
});

const FILE_STARTED = Date.now();
const daysAgo = (days: number) => new Date(FILE_STARTED - days * 86_400_000).toISOString().slice(0, 10);
const runSource = () => runSourceNow(stack, 'companies-house');
const searchAnswer = (title: string, number: string) => ({
  json: {
    kind: 'search#companies',
    total_results: 1,
    items_per_page: 20,
    start_index: 0,
    items: [{ kind: 'searchresults#company', title, company_number: number, company_status: 'active' }],
  },
});

const PLOVER = '11000011';
const KINGFISHER = '01000010';
const TERN = '12000012';
const GONE = '13000013';
const FULL = ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'];

test('a new corporate owner of more than 75 % is a deal of the company bought and of its watched buyer; other PSCs are none', async () => {
  await ingest(stack, [
    { kind: 'company', id: 'co-plover', name: 'Plover Software', hqCountryCode: 'GB' } as never,
    { kind: 'company', id: 'co-kingfisher', name: 'Kingfisher Group', hqCountryCode: 'GB' } as never,
  ]);
  const api = client(stack, await createAccount(stack, { credits: 100 }));
  const watchlist = await createSignal(api, 'account-watchlist', {
    name: 'UK deals',
    status: 'active',
    config: { companies: ['Plover Software', 'Kingfisher Group'] },
  });
  await settled(stack, watchlist.id);
  // The first run finds both watched companies' numbers by a register search.
  rest.answer('/search/companies?q=Plover%20Software&items_per_page=20', searchAnswer('PLOVER SOFTWARE LTD', PLOVER));
  rest.answer(
    '/search/companies?q=Kingfisher%20Group&items_per_page=20',
    searchAnswer('KINGFISHER GROUP LIMITED', KINGFISHER),
  );
  for (const number of [PLOVER, KINGFISHER])
    rest.answer(`/company/${number}/filing-history?category=capital&items_per_page=100`, { json: filingHistory([]) });
  await runSource();
  expect(await stack.db.query(`SELECT company_number, company_id FROM companies_house_companies ORDER BY 1`)).toEqual([
    { company_number: KINGFISHER, company_id: 'co-kingfisher' },
    { company_number: PLOVER, company_id: 'co-plover' },
  ]);

  const notified = daysAgo(3);
  // The stream refuses once with a Retry-After, then plays.
  stream.pscPlays.push({ lines: [], then: 'close', status: 429, headers: { 'retry-after': '1' } });
  stream.pscPlays.push({
    lines: [
      // Plover bought by Kingfisher, its number written without the leading zero as some filings do.
      pscEvent({
        timepoint: 500,
        number: PLOVER,
        pscId: 'pscKingPlover',
        name: 'KINGFISHER GROUP LIMITED',
        natures: FULL,
        notifiedOn: notified,
        registrationNumber: '1000010',
      }),
      // A company the store does not know, bought by Kingfisher as a firm (its number spaced): the buyer's deal only.
      pscEvent({
        timepoint: 501,
        number: TERN,
        pscId: 'pscKingTern',
        name: 'Kingfisher Group Limited',
        natures: ['voting-rights-75-to-100-percent-as-firm'],
        notifiedOn: notified,
        registrationNumber: '0100 0010',
      }),
      // No deals: a person, a minority, a null name, a ceased owner, an old notice.
      pscEvent({
        timepoint: 502,
        number: PLOVER,
        pscId: 'pscPerson',
        kind: 'individual-person-with-significant-control',
        name: 'Mr Alan Plover',
        natures: FULL,
        notifiedOn: notified,
      }),
      pscEvent({
        timepoint: 503,
        number: PLOVER,
        pscId: 'pscMinority',
        name: 'SANDPIPER CAPITAL LLP',
        natures: ['ownership-of-shares-50-to-75-percent', 'right-to-appoint-and-remove-directors'],
        notifiedOn: notified,
      }),
      pscEvent({ timepoint: 504, number: PLOVER, pscId: 'pscNoName', name: null, natures: FULL, notifiedOn: notified }),
      pscEvent({
        timepoint: 505,
        number: PLOVER,
        pscId: 'pscCeased',
        name: 'OLD PARENT LIMITED',
        natures: FULL,
        notifiedOn: '2018-01-01',
        ceasedOn: notified,
      }),
      pscEvent({
        timepoint: 506,
        number: PLOVER,
        pscId: 'pscOld',
        name: 'OLDER PARENT LIMITED',
        natures: FULL,
        notifiedOn: '2019-05-05',
      }),
      // A malformed line: that line alone is not understood.
      '{"resource_kind":"company-psc-corporate","data":{"name":"BROKEN',
      // Bought by a foreign company at a number Companies House does not know (404): no deal anyone watches.
      pscEvent({
        timepoint: 507,
        number: GONE,
        pscId: 'pscGone',
        name: 'FOREIGN HOLDINGS B.V.',
        natures: ['ownership-of-shares-75-to-100-percent-as-trust'],
        notifiedOn: notified,
        registrationNumber: 'NL-34567890',
      }),
    ],
    then: 'close',
  });
  rest.answer(`/company/${TERN}`, { json: companyProfile(TERN, 'TERN TRADING LTD') });

  const status = await runSource();

  expect(stream.pscRequests.map((r) => r.path)).toEqual([
    '/persons-with-significant-control',
    '/persons-with-significant-control',
    '/persons-with-significant-control',
  ]);
  expect(
    (
      await stack.db.query(
        `SELECT timepoint FROM companies_house_streams WHERE stream = 'persons-with-significant-control'`,
      )
    )[0].timepoint,
  ).toBe('507');
  const registerPage = (number: string) =>
    `https://find-and-update.company-information.service.gov.uk/company/${number}/persons-with-significant-control`;
  expect(
    await stack.db.query(
      `SELECT id, type, company_id, data FROM events WHERE type = 'mergers_acquisitions' ORDER BY id`,
    ),
  ).toEqual([
    {
      id: 'companies-house:psc:pscKingPlover',
      type: 'mergers_acquisitions',
      company_id: 'co-plover',
      data: {
        deal_type: 'Acquisition',
        watchlist_role: 'acquiree',
        announcement_date: notified,
        news_headline: `Kingfisher Group Limited (${KINGFISHER}) took control of Plover Software (more than 75% of shares or votes)`,
        news_url: registerPage(PLOVER),
      },
    },
    {
      id: 'companies-house:psc:pscKingPlover:acquirer',
      type: 'mergers_acquisitions',
      company_id: 'co-kingfisher',
      data: {
        deal_type: 'Acquisition',
        watchlist_role: 'acquirer',
        announcement_date: notified,
        news_headline: `Kingfisher Group Limited (${KINGFISHER}) took control of Plover Software (more than 75% of shares or votes)`,
        news_url: registerPage(PLOVER),
      },
    },
    {
      id: 'companies-house:psc:pscKingTern:acquirer',
      type: 'mergers_acquisitions',
      company_id: 'co-kingfisher',
      data: {
        deal_type: 'Acquisition',
        watchlist_role: 'acquirer',
        announcement_date: notified,
        news_headline: `Kingfisher Group Limited (${KINGFISHER}) took control of Tern Trading Ltd (more than 75% of shares or votes)`,
        news_url: registerPage(TERN),
      },
    },
  ]);
  expect(
    await stack.db.query(
      `SELECT psc_id, company_number, acquirer_number, status FROM companies_house_controls ORDER BY 1`,
    ),
  ).toEqual([
    { psc_id: 'pscGone', company_number: GONE, acquirer_number: 'NL-34567890', status: 'dropped' },
    { psc_id: 'pscKingPlover', company_number: PLOVER, acquirer_number: KINGFISHER, status: 'ingested' },
    { psc_id: 'pscKingTern', company_number: TERN, acquirer_number: KINGFISHER, status: 'ingested' },
  ]);
  expect(status.lastError).toBe('persons-with-significant-control stream: 1 event(s) not understood');

  // The watchlist gets the company bought as acquiree and the buyer's two deals as acquirer.
  await evaluateNow(stack, watchlist.id);
  const leads = await allLeads(api, watchlist.id);
  const deals = leads
    .map((lead) => ({
      company: lead.company.name,
      last_signal: lead.signal.last_signal,
      deal_type: lead.signal.deal_type,
      watchlist_role: lead.signal.watchlist_role,
      announcement_date: lead.signal.announcement_date,
      news_url: lead.signal.news_url,
    }))
    .sort((a, b) => `${a.company}${a.news_url}`.localeCompare(`${b.company}${b.news_url}`));
  expect(deals).toEqual([
    {
      company: 'Kingfisher Group',
      last_signal: 'Watched Company Deal',
      deal_type: 'Acquisition',
      watchlist_role: 'acquirer',
      announcement_date: notified,
      news_url: registerPage(PLOVER),
    },
    {
      company: 'Kingfisher Group',
      last_signal: 'Watched Company Deal',
      deal_type: 'Acquisition',
      watchlist_role: 'acquirer',
      announcement_date: notified,
      news_url: registerPage(TERN),
    },
    {
      company: 'Plover Software',
      last_signal: 'Watched Company Deal',
      deal_type: 'Acquisition',
      watchlist_role: 'acquiree',
      announcement_date: notified,
      news_url: registerPage(PLOVER),
    },
  ]);

  // The same notices read again (a resumed stream) make nothing new.
  const before = await stack.db.query(`SELECT count(*)::int AS n FROM events`);
  stream.pscPlays.push({
    lines: [
      pscEvent({
        timepoint: 508,
        number: PLOVER,
        pscId: 'pscKingPlover',
        name: 'KINGFISHER GROUP LIMITED',
        natures: FULL,
        notifiedOn: notified,
        registrationNumber: KINGFISHER,
      }),
    ],
    then: 'close',
  });
  await runSource();
  expect(stream.pscRequests.at(-1)!.path).toBe('/persons-with-significant-control?timepoint=507');
  expect(await stack.db.query(`SELECT count(*)::int AS n FROM events`)).toEqual(before);
});
