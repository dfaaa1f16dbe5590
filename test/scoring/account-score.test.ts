import fc from 'fast-check';
import type { Stack } from '../setup/stack';
import { createAccount, type TestAccount } from '../setup/http';
import { startReceiver, type Receiver } from '../deliveries/receiver';
import { callTool, connectAssistant, toolError, toolOk } from '../mcp/helpers';
import {
  allLeads,
  client,
  company,
  createSignal,
  daysAgo,
  evaluateNow,
  event,
  expectStatus,
  ingest,
  jobChangeData,
  person,
  settled,
  startLeadsStack,
  uid,
  waitFor,
  type Client,
} from '../leads/fixtures';
import {
  DEFAULT_SCORING_MODEL,
  accountScore,
  scoreCrossings,
  type ScoredEvent,
  type ScoringModel,
} from '../../src/signal-types/kit/account-score';

/**
 * Issue 35, items 3–5, end to end on the real stack: the scoring model's REST routes, a
 * company's score, the SQL twin of the score agreeing with the TypeScript one, an
 * account_score signal whose lead reaches a real webhook receiver with its breakdown when
 * ingested events make a company's score cross, and GET /api/v1/leads/{leadId} answering the
 * evidence of a lead of every type.
 */

let stack: Stack;
let account: TestAccount;
let api: Client;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startLeadsStack();
  account = await createAccount(stack, { credits: 1000 });
  api = client(stack, account);
  receiver = await startReceiver({ secret: account.webhookSecret });
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const put = (path: string, body: unknown) =>
  fetch(`${stack.url}/api/v1${path}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${account.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

const leadIdsOf = async (signalId: string, companyName: string): Promise<string[]> =>
  (
    (await stack.db.query(
      `SELECT id FROM leads WHERE signal_id = $1 AND payload->'company'->>'name' = $2 ORDER BY created_at, id`,
      [signalId, companyName],
    )) as {
      id: string;
    }[]
  ).map((row) => row.id);

describe('the scoring model', () => {
  test('answers the defaults, refuses a bad model with the envelope and changes nothing, stores a good one', async () => {
    expect(expectStatus(await api.get('/scoring-model'), 200)).toEqual({
      source: 'default',
      updatedAt: null,
      model: DEFAULT_SCORING_MODEL,
    });
    for (const bad of [
      { eventTypes: { fundraising: { points: -1, halfLifeDays: 90, ceiling: 40 } } },
      { eventTypes: { not_an_event: { points: 1, halfLifeDays: 90, ceiling: 40 } } },
      { eventTypes: { fundraising: { points: 10, halfLifeDays: 0, ceiling: 40 } } },
      { eventTypes: {}, extra: true },
      { eventTypes: { fundraising: { points: 10, halfLifeDays: 30 } } },
    ]) {
      const answer = await put('/scoring-model', bad);
      expect(answer.status).toBe(422);
      expect(answer.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(answer.body.error.message).toEqual(expect.any(String));
    }
    expect(expectStatus(await api.get('/scoring-model'), 200).source).toBe('default');

    const own: ScoringModel = {
      eventTypes: { ...DEFAULT_SCORING_MODEL.eventTypes, company_news: { points: 8, halfLifeDays: 20, ceiling: 16 } },
    };
    const stored = await put('/scoring-model', own);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ source: 'account', model: own });
    expect(expectStatus(await api.get('/scoring-model'), 200)).toMatchObject({ source: 'account', model: own });
    // Back to the defaults for the rest of the file.
    expect((await put('/scoring-model', DEFAULT_SCORING_MODEL)).status).toBe(200);
  });

  test("a company's score: the score, its grade and each event's part; unknown companies are 404", async () => {
    const slug = uid('score');
    const co = company(slug);
    const round = daysAgo(10);
    const leader = daysAgo(5);
    const elsewhere = company(`${slug}-x`);
    const cfo = person(`${slug}-cfo`, co.id, { title: 'CFO' });
    const mover = person(`${slug}-mover`, elsewhere.id);
    await ingest(stack, [
      co,
      elsewhere,
      cfo,
      mover,
      event(`ev-${slug}-round`, 'fundraising', round, co.id, { data: { funding_stage: 'Series A' } }),
      event(`ev-${slug}-leader`, 'new_decision_makers', leader, co.id, { personId: cfo.id }),
      // Another company's event is no part of this one's score.
      event(`ev-${slug}-other`, 'job_change', daysAgo(1), elsewhere.id, {
        personId: mover.id,
        data: jobChangeData('CTO', elsewhere.name),
      }),
    ]);
    const answer = expectStatus(await api.get(`/companies/${co.id}/score`), 200);
    const expected = accountScore(
      [
        { id: `ev-${slug}-round`, type: 'fundraising', occurredAt: new Date(round) },
        { id: `ev-${slug}-leader`, type: 'new_decision_makers', occurredAt: new Date(leader) },
      ],
      DEFAULT_SCORING_MODEL,
      new Date(answer.at),
    );
    expect(answer).toMatchObject({
      companyId: co.id,
      companyName: co.name,
      score: expected.score,
      grade: expected.grade,
      distinctTypes: 2,
      // The first test stored the defaults as the account's own.
      modelSource: 'account',
    });
    expect(answer.breakdown.map((p: { type: string; weight: number }) => [p.type, p.weight])).toEqual([
      ['fundraising', 30],
      ['new_decision_makers', 15],
    ]);
    // 30 halved every 90 days, 10 days old; 15 halved every 60 days, 5 days old.
    expect(answer.score).toBeCloseTo(30 * 0.5 ** (10 / 90) + 15 * 0.5 ** (5 / 60), 0);

    const unknown = await api.get(`/companies/co-${uid('nobody')}/score`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const stray = await api.get(`/companies/${co.id}/score?at=yesterday`);
    expect(stray.status).toBe(400);
    expect(stray.body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('the score in SQL', () => {
  test('account_score_at and account_score_crossings agree with accountScore and scoreCrossings', async () => {
    const now = Date.now();
    const types = ['fundraising', 'new_decision_makers', 'job_offers', 'company_news', 'public_tenders'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            type: fc.constantFrom(...types),
            // Whole minutes, some at one instant: the id then orders them.
            minutes: fc.integer({ min: -400 * 1440, max: 0 }).map((m) => m - (m % 7)),
          }),
          { minLength: 1, maxLength: 14 },
        ),
        fc.record({
          threshold: fc.constantFrom(20, 35, 50),
          minDistinctTypes: fc.constantFrom(1, 2),
          cooldownDays: fc.constantFrom(0, 10, 60),
        }),
        async (drafts, rule) => {
          const slug = uid('sql');
          const co = company(slug);
          const events: ScoredEvent[] = drafts.map((d, i) => ({
            // Mixed case and digits: byte order, not the locale's, must order them.
            id: `${i % 2 ? 'E' : 'e'}-${slug}-${String.fromCharCode(97 + ((i * 7) % 26))}${i}`,
            type: d.type,
            occurredAt: new Date(now + d.minutes * 60_000),
          }));
          const someone = person(`${slug}-p`, co.id, { title: 'CFO' });
          await ingest(stack, [
            co,
            someone,
            ...events.map((e) =>
              event(e.id, e.type, e.occurredAt.toISOString(), co.id, {
                personId: e.type === 'new_decision_makers' ? someone.id : undefined,
              }),
            ),
          ]);
          const model = JSON.stringify(DEFAULT_SCORING_MODEL);
          for (const e of events) {
            const [sql] = (await stack.db.query(
              `SELECT (s).score, (s).distinct_types FROM (SELECT account_score_at($1, $2::jsonb, $3, $4, TRUE) AS s) x`,
              [co.id, model, e.occurredAt, e.id],
            )) as { score: number; distinct_types: number }[];
            const upTo = events.filter(
              (x) =>
                x.occurredAt.getTime() < e.occurredAt.getTime() ||
                (x.occurredAt.getTime() === e.occurredAt.getTime() &&
                  Buffer.compare(Buffer.from(x.id), Buffer.from(e.id)) <= 0),
            );
            const ts = accountScore(upTo, DEFAULT_SCORING_MODEL, e.occurredAt);
            expect(sql.score).toBeCloseTo(ts.exact, 9);
            expect(sql.distinct_types).toBe(ts.distinctTypes);
          }
          const [{ crossings }] = (await stack.db.query(
            `SELECT account_score_crossings($1, $2::jsonb, $3, $4, $5) AS crossings`,
            [co.id, model, rule.threshold, rule.minDistinctTypes, rule.cooldownDays],
          )) as { crossings: string[] }[];
          expect(crossings).toEqual(scoreCrossings(events, DEFAULT_SCORING_MODEL, rule));
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('the account_score signal', () => {
  test('events ingested make the score cross: one lead, delivered with its breakdown; staying above gives no other', async () => {
    const slug = uid('cross');
    const co = company(slug);
    const round = daysAgo(20);
    await ingest(stack, [
      co,
      event(`sec-form-d:${slug}-round`, 'fundraising', round, co.id, {
        data: { funding_type: 'Equity', funding_amount_usd: 8_000_000, announcement_date: round.slice(0, 10) },
      }),
    ]);
    const signal = expectStatus(
      await api.post('/signals/account-score', {
        name: 'Hot accounts',
        status: 'active',
        webhookUrl: receiver.url,
        config: { threshold: 40, minDistinctTypes: 2, cooldownDays: 30, industryFilters: ['Software Development'] },
      }),
      201,
    );
    expect(signal).toMatchObject({ signalTypeId: 'account_score', duplicateHandling: 'allow', warnings: [] });
    await settled(stack, signal.id);
    // Only this company's leads: the file's other companies may cross too.
    const mine = async () => (await allLeads(api, signal.id)).filter((l) => l.company.name === co.name);
    // 30 points halved over 90 days, one type: below 40 and below 2 types.
    expect(await mine()).toEqual([]);

    const leaderAt = daysAgo(1);
    const newsAt = daysAgo(0.5);
    await ingest(stack, [
      person(`${slug}-cfo`, co.id, { title: 'CFO' }),
      event(`companies-house:appointment:${slug}`, 'new_decision_makers', leaderAt, co.id, {
        personId: `pe-${slug}-cfo`,
      }),
      event(`news:${slug}-story`, 'company_news', newsAt, co.id, {
        data: {
          news_url: `https://news.example.com/${slug}`,
          news_headline: `${co.name} names a new CFO`,
        },
      }),
    ]);
    await evaluateNow(stack, signal.id);
    const leads = await mine();
    expect(leads).toHaveLength(1);
    const [lead] = leads;
    const expected = accountScore(
      [
        { id: `sec-form-d:${slug}-round`, type: 'fundraising', occurredAt: new Date(round) },
        { id: `companies-house:appointment:${slug}`, type: 'new_decision_makers', occurredAt: new Date(leaderAt) },
      ],
      DEFAULT_SCORING_MODEL,
      new Date(leaderAt),
    );
    expect(lead.signal).toEqual({
      id: signal.id,
      name: 'Hot accounts',
      type: 'account_score',
      last_signal: 'Account Score Crossed',
      last_signal_date: leaderAt.slice(0, 10),
      score: expected.score,
      grade: expected.grade,
      distinct_types: 2,
      score_breakdown: expected.breakdown,
    });
    expect(lead.signal.score).toBeGreaterThanOrEqual(40);
    expect(lead.contact).toBe('');
    expect(lead.company).toMatchObject({ name: co.name });

    const delivered = await waitFor(
      'the webhook of the crossing',
      async () => receiver.requests.find((r) => r.body?.company?.name === co.name),
      (found) => found !== undefined,
    ).then((found) => found!);
    expect(delivered.verified).toBe(true);
    expect(delivered.body.signal.score_breakdown).toEqual(expected.breakdown);
    expect(delivered.body.signal.score).toBe(expected.score);

    // The news at 0.5 days came after the crossing: the company stayed above, so no second lead.
    await evaluateNow(stack, signal.id);
    expect(await mine()).toHaveLength(1);

    const funnel = expectStatus(await api.get(`/signals/${signal.id}/funnel`), 200);
    expect(funnel.stages.map((s: { filter: string }) => s.filter).slice(0, 4)).toEqual([
      'maxCrossingAgeDays',
      'threshold',
      'minDistinctTypes',
      'cooldownDays',
    ]);
    expect(funnel.leads).toBe((await allLeads(api, signal.id)).length);

    // Why: the crossing event, the events of the breakdown with their sources and URLs, the conditions.
    const [leadId] = await leadIdsOf(signal.id, co.name);
    const why = expectStatus(await api.get(`/leads/${leadId}`), 200);
    expect(why.lead).toEqual(lead);
    expect(why.evidence.events[0]).toMatchObject({
      eventId: `companies-house:appointment:${slug}`,
      type: 'new_decision_makers',
      source: 'companies-house',
      occurredAt: new Date(leaderAt).toISOString(),
    });
    expect(why.evidence.events.map((e: { eventId: string; source: string }) => [e.eventId, e.source])).toEqual([
      [`companies-house:appointment:${slug}`, 'companies-house'],
      [`sec-form-d:${slug}-round`, 'sec-form-d'],
    ]);
    expect(why.evidence.events.every((e: { readAt: string }) => !Number.isNaN(Date.parse(e.readAt)))).toBe(true);
    expect(why.evidence.score).toEqual({
      score: expected.score,
      grade: expected.grade,
      breakdown: expected.breakdown,
    });
    expect(why.evidence.conditions).toEqual(
      expect.arrayContaining([
        { field: 'type', required: 'account_score' },
        { field: 'threshold', required: 40, actual: expected.score },
        { field: 'minDistinctTypes', required: 2, actual: 2 },
        { field: 'cooldownDays', required: 30 },
        { field: 'industryFilters', required: ['Software Development'] },
      ]),
    );
  });

  test('a company crosses again only after falling below and past the cooldown', async () => {
    const slug = uid('again');
    const co = company(slug);
    // Crossing 1 at day -200 (round + leader), decays below by day -100, crossing 2 at day -3.
    const leader = person(`${slug}-cfo`, co.id, { title: 'CFO' });
    const records = [
      co,
      leader,
      event(`ev-${slug}-r1`, 'fundraising', daysAgo(201), co.id),
      event(`ev-${slug}-l1`, 'new_decision_makers', daysAgo(200), co.id, { personId: leader.id }),
      event(`ev-${slug}-r2`, 'fundraising', daysAgo(4), co.id),
      event(`ev-${slug}-l2`, 'new_decision_makers', daysAgo(3), co.id, { personId: leader.id }),
      // Still above: no crossing.
      event(`ev-${slug}-t`, 'public_tenders', daysAgo(2), co.id),
    ];
    await ingest(stack, records);
    const signal = expectStatus(
      await api.post('/signals/account-score', {
        name: 'Long window',
        status: 'active',
        config: { threshold: 40, minDistinctTypes: 2, cooldownDays: 30, maxCrossingAgeDays: 365 },
      }),
      201,
    );
    await settled(stack, signal.id);
    const leads = await allLeads(api, signal.id);
    expect(
      leads
        .filter((l) => l.company.name === co.name)
        .map((l) => l.signal.last_signal_date)
        .sort(),
    ).toEqual([daysAgo(200), daysAgo(3)].map((d) => d.slice(0, 10)).sort());
    const events = records.flatMap((r) =>
      r.kind === 'event' ? [{ id: r.id, type: r.type, occurredAt: new Date(r.occurredAt) }] : [],
    );
    expect(
      scoreCrossings(events, DEFAULT_SCORING_MODEL, { threshold: 40, minDistinctTypes: 2, cooldownDays: 30 }),
    ).toEqual([`ev-${slug}-l1`, `ev-${slug}-l2`]);
    // A cooldown longer than the gap keeps the second crossing out.
    const strict = expectStatus(
      await api.post('/signals/account-score', {
        name: 'Long cooldown',
        status: 'active',
        config: { threshold: 40, minDistinctTypes: 2, cooldownDays: 300, maxCrossingAgeDays: 365 },
      }),
      201,
    );
    await settled(stack, strict.id);
    expect(
      (await allLeads(api, strict.id)).filter((l) => l.company.name === co.name).map((l) => l.signal.last_signal_date),
    ).toEqual([daysAgo(200).slice(0, 10)]);
  });

  test('bad config and bad lead ids answer the envelope; test-send carries the score fields', async () => {
    for (const config of [{ threshold: 150 }, { minDistinctTypes: 0 }, { cooldownDays: -1 }, { thresholds: 50 }]) {
      const answer = await api.post('/signals/account-score', { name: 'Bad', config });
      expect(answer.status).toBe(422);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    }
    const malformed = await api.get('/leads/not-a-uuid');
    expect(malformed.status).toBe(404);
    expect(malformed.body.error.code).toBe('NOT_FOUND');
    const unknown = await api.get('/leads/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');

    const signal = expectStatus(
      await api.post('/signals/account-score', { name: 'Sample', webhookUrl: receiver.url, config: {} }),
      201,
    );
    const before = receiver.requests.length;
    const sent = await api.post(`/signals/${signal.id}/test-webhook`, {});
    expect(sent.status).toBeLessThan(300);
    const body = (await receiver.waitFor(before + 1))[before].body;
    expect(body.signal).toMatchObject({ type: 'account_score', grade: 'B', distinct_types: 2 });
    expect(body.signal.score_breakdown).toHaveLength(2);
  });
});

describe('GET /api/v1/leads/{leadId}', () => {
  test('answers the evidence of a lead of each other type: its event, source, URL and the conditions', async () => {
    const slug = uid('why');
    const co = company(slug);
    const cto = person(`${slug}-cto`, co.id, { title: 'CTO' });
    const roundAt = daysAgo(6);
    const postingAt = daysAgo(2);
    const changeAt = daysAgo(3);
    await ingest(stack, [
      co,
      cto,
      event(`sec-form-d:${slug}`, 'fundraising', roundAt, co.id, {
        data: { funding_type: 'Equity', funding_amount_usd: 3_000_000, announcement_date: roundAt.slice(0, 10) },
      }),
      event(`greenhouse:${slug}:1`, 'job_offers', postingAt, co.id, {
        data: {
          job_offer_url: `https://boards.greenhouse.io/${slug}/jobs/1`,
          job_offer_title: 'Senior Data Engineer',
          job_offer_location: 'Austin, Texas, United States',
          job_offer_description: 'Snowflake pipelines.',
        },
      }),
      event(`ev-${slug}-change`, 'job_change', changeAt, co.id, {
        personId: cto.id,
        data: jobChangeData('CTO', co.name),
      }),
      event(`forecasts:likely-to-raise:${slug}`, 'forecasted_funding', daysAgo(1), co.id),
    ]);
    // A forecast carries its own evidence in its data (issue 35, item 1): stored straight, as the forecasts source would.
    const forecastEvidence = [{ eventId: `sec-form-d:${slug}`, type: 'fundraising', date: roundAt }];
    await stack.db.query(`UPDATE events SET data = data || jsonb_build_object('evidence', $2::jsonb) WHERE id = $1`, [
      `forecasts:likely-to-raise:${slug}`,
      JSON.stringify(forecastEvidence),
    ]);

    const cases = [
      {
        kind: 'fundraising',
        config: { industryFilters: ['Software Development'] },
        event: `sec-form-d:${slug}`,
        source: 'sec-form-d',
        url: '',
        condition: { field: 'industryFilters', required: ['Software Development'] },
      },
      {
        kind: 'hiring',
        config: { keywords: ['Snowflake'] },
        event: `greenhouse:${slug}:1`,
        source: 'job-boards',
        url: `https://boards.greenhouse.io/${slug}/jobs/1`,
        condition: { field: 'keywords', required: ['Snowflake'] },
      },
      {
        kind: 'job-changes',
        config: { jobTitles: ['Chief Technology Officer'] },
        event: `ev-${slug}-change`,
        source: 'ingest',
        url: '',
        condition: { field: 'jobTitles', required: ['Chief Technology Officer'] },
      },
      {
        kind: 'account-watchlist',
        config: {
          companies: [co.domain],
          sources: { fundraising: { enabled: false }, job_offers: { enabled: false } },
        },
        event: `forecasts:likely-to-raise:${slug}`,
        source: 'forecasts',
        url: '',
        condition: { field: 'sources' },
      },
    ] as const;
    for (const c of cases) {
      const config = Object.fromEntries(Object.entries(c.config).filter(([, v]) => v !== undefined));
      const signal = await createSignal(api, c.kind, { name: `why ${c.kind}`, status: 'active', config });
      await settled(stack, signal.id);
      const rows = (await stack.db.query(`SELECT id, event_id FROM leads WHERE signal_id = $1`, [signal.id])) as {
        id: string;
        event_id: string;
      }[];
      const mine = rows.filter((row) => row.event_id === c.event);
      expect({ kind: c.kind, leads: mine.length }).toEqual({ kind: c.kind, leads: 1 });
      const why = expectStatus(await api.get(`/leads/${mine[0].id}`), 200);
      expect(why).toMatchObject({ leadId: mine[0].id, signalId: signal.id });
      expect(why.lead.signal).toMatchObject({ id: signal.id, type: c.kind.replace('-', '_') });
      expect(why.evidence.events).toHaveLength(1);
      expect(why.evidence.events[0]).toMatchObject({ eventId: c.event, source: c.source, url: c.url });
      expect(why.evidence.conditions).toEqual(
        expect.arrayContaining([
          { field: 'type', required: c.kind.replace('-', '_') },
          expect.objectContaining(c.condition),
        ]),
      );
      expect(why.evidence.score).toBeUndefined();
      if (c.kind === 'account-watchlist') expect(why.evidence.events[0].evidence).toEqual(forecastEvidence);
    }

    // Another account never reads these leads.
    const other = client(stack, await createAccount(stack, { credits: 10 }));
    const [anyLead] = (await stack.db.query(`SELECT id FROM leads WHERE account_id = $1 LIMIT 1`, [
      account.accountId,
    ])) as { id: string }[];
    const refused = await other.get(`/leads/${anyLead.id}`);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
  });
});

describe('the tool twins', () => {
  test('get_lead, get_company_score, get_scoring_model and set_scoring_model answer as their REST twins', async () => {
    const assistant = await connectAssistant(stack, account.apiKey);
    try {
      const [row] = (await stack.db.query(
        `SELECT l.id, e.company_id FROM leads l JOIN events e ON e.id = l.event_id JOIN signals s ON s.id = l.signal_id
         WHERE l.account_id = $1 AND s.signal_type_id = 'account_score' ORDER BY l.created_at LIMIT 1`,
        [account.accountId],
      )) as { id: string; company_id: string }[];
      expect(await toolOk(assistant, 'get_lead', { leadId: row.id })).toEqual(
        expectStatus(await api.get(`/leads/${row.id}`), 200),
      );
      await toolError(assistant, 'get_lead', { leadId: '00000000-0000-4000-8000-000000000000' }, 'NOT_FOUND');
      const viaTool = await toolOk(assistant, 'get_company_score', { companyId: row.company_id });
      expect(viaTool).toMatchObject({ companyId: row.company_id, breakdown: expect.any(Array) });
      expect(viaTool.score).toBeGreaterThan(0);
      expect(await toolOk(assistant, 'get_scoring_model')).toEqual(expectStatus(await api.get('/scoring-model'), 200));
      // The tool's input schema is the REST body's: the field is named, nothing is stored.
      const refused = await callTool(assistant, 'set_scoring_model', {
        model: { eventTypes: { fundraising: { points: 500, halfLifeDays: 90, ceiling: 40 } } },
      });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('model.eventTypes.fundraising.points');
      expect(expectStatus(await api.get('/scoring-model'), 200).model).toEqual(DEFAULT_SCORING_MODEL);
      const stored = await toolOk(assistant, 'set_scoring_model', { model: DEFAULT_SCORING_MODEL });
      expect(stored).toMatchObject({ source: 'account', model: DEFAULT_SCORING_MODEL });
    } finally {
      await assistant.close();
    }
    // A read-only key reads the model but may not change it: the permission is the REST twin's.
    const reader = await createAccount(stack, { credits: 1, permissions: ['read'] });
    const readingAssistant = await connectAssistant(stack, reader.apiKey);
    try {
      expect((await toolOk(readingAssistant, 'get_scoring_model')).source).toBe('default');
      await toolError(readingAssistant, 'set_scoring_model', { model: DEFAULT_SCORING_MODEL }, 'FORBIDDEN');
    } finally {
      await readingAssistant.close();
    }
  });
});
