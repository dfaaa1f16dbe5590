import {
  DAY_MS,
  allLeads,
  allUsage,
  company,
  createSignal,
  dayOf,
  daysAgo,
  evaluateNow,
  event,
  getSignal,
  ingest,
  jobChangeData,
  person,
  settled,
  leadsTestBed,
} from './fixtures';

/**
 * The same event never yields two leads in a signal; duplicateHandling decides whether the
 * same subject (here the person) may come back through another event.
 */

const bed = leadsTestBed({ credits: 1000 });

/** One person who changed jobs twice: two job_change events, the first `firstDays` ago. */
async function twoJobChanges(slug: string, title: string, firstDays: number, secondDays: number) {
  const now = bed.stack.services.clock.now().getTime();
  const first = company(`${slug}-one`);
  const second = company(`${slug}-two`);
  const who = person(slug, second.id, { title });
  const events = [
    event(`ev-${slug}-1`, 'job_change', daysAgo(firstDays, now), first.id, {
      personId: who.id,
      data: jobChangeData(title, first.name, '2026-05'),
    }),
    event(`ev-${slug}-2`, 'job_change', daysAgo(secondDays, now), second.id, {
      personId: who.id,
      data: jobChangeData(title, second.name, '2026-10'),
    }),
  ];
  await ingest(bed.stack, [first, second, who, ...events]);
  return { person: who, events };
}

const newCompanies = (leads: any[]) => leads.map((l) => l.signal.new_company).sort();

test('refuse: the same person through two job-change events gives one lead, ever', async () => {
  const { events } = await twoJobChanges('du-refuse', 'CDO', 40, 5);
  const signal = await createSignal(bed.api, 'job-changes', {
    name: 'CDOs once',
    status: 'active',
    duplicateHandling: 'refuse',
    config: { jobTitles: ['Chief Data Officer'] },
  });
  expect(signal.duplicateHandling).toBe('refuse');
  await settled(bed.stack, signal.id);
  const leads = await allLeads(bed.api, signal.id);
  expect(leads).toHaveLength(1);
  // The older event is the one produced.
  expect(leads[0].signal.last_signal_date).toBe(dayOf(events[0].occurredAt));
  expect(newCompanies(leads)).toEqual(['du-refuse-one Labs']);

  // Later evaluations, even much later, never bring the person back.
  await evaluateNow(bed.stack, signal.id);
  expect(await allLeads(bed.api, signal.id)).toHaveLength(1);
  expect((await allUsage(bed.api, signal.id)).filter((u) => u.operation === 'lead')).toHaveLength(1);
});

test('job changes default to refuse', async () => {
  await twoJobChanges('du-default', 'CISO', 30, 4);
  const signal = await createSignal(bed.api, 'job-changes', {
    name: 'CISOs',
    status: 'active',
    config: { jobTitles: ['Chief Information Security Officer'] },
  });
  expect(signal.duplicateHandling).toBe('refuse');
  await settled(bed.stack, signal.id);
  expect(await allLeads(bed.api, signal.id)).toHaveLength(1);
});

test('allow: both events of the same person are leads, and re-evaluating yields no third', async () => {
  await twoJobChanges('du-allow', 'CPO', 40, 5);
  const signal = await createSignal(bed.api, 'job-changes', {
    name: 'CPOs always',
    status: 'active',
    duplicateHandling: 'allow',
    config: { jobTitles: ['Chief Product Officer'] },
  });
  await settled(bed.stack, signal.id);
  const leads = await allLeads(bed.api, signal.id);
  expect(leads).toHaveLength(2);
  expect(newCompanies(leads)).toEqual(['du-allow-one Labs', 'du-allow-two Labs']);
  expect(new Set(leads.map((l) => l.contact.linkedin_profile_url))).toEqual(
    new Set(['https://www.linkedin.com/in/du-allow']),
  );
  expect(new Set(leads.map((l) => l.contact.lead_id)).size).toBe(2);

  // The same events are never leads twice in this signal, however often it evaluates.
  await evaluateNow(bed.stack, signal.id);
  await evaluateNow(bed.stack, signal.id);
  expect(await allLeads(bed.api, signal.id)).toHaveLength(2);
  expect((await allUsage(bed.api, signal.id)).filter((u) => u.operation === 'lead')).toHaveLength(2);
});

test('account watchlist: an event watched through two entries, or evaluated again, is one lead', async () => {
  const co = company('du-wl');
  await ingest(bed.stack, [
    co,
    event('ev-du-wl-1', 'fundraising', daysAgo(6), co.id, { data: { funding_type: 'Series C' } }),
  ]);
  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Watched twice',
    status: 'active',
    // The same company by domain and by its page: two watched entries.
    config: { companies: ['du-wl.com', 'https://www.linkedin.com/company/du-wl'] },
  });
  expect(signal.watchlist).toMatchObject({ watched: 2 });
  expect(signal.duplicateHandling).toBe('allow');
  await settled(bed.stack, signal.id);
  expect(await allLeads(bed.api, signal.id)).toHaveLength(1);
  await evaluateNow(bed.stack, signal.id);
  expect(await allLeads(bed.api, signal.id)).toHaveLength(1);

  // A different event of the same company is a new lead (the watchlist allows repeated subjects).
  await ingest(bed.stack, [event('ev-du-wl-2', 'public_tenders', daysAgo(1), co.id)]);
  await evaluateNow(bed.stack, signal.id);
  const leads = await allLeads(bed.api, signal.id);
  expect(leads.map((l) => l.signal.last_signal)).toEqual(['Public Tenders Watchlist', 'Watched Company Raised']);
  expect((await allUsage(bed.api, signal.id)).filter((u) => u.operation === 'lead')).toHaveLength(2);
});

test('persona targeting: a company event stays one lead when another person of the persona appears later', async () => {
  const co = company('du-tp');
  const laterCfo = person('du-tp-zed', co.id, { title: 'CFO', lastName: 'Zed' });
  await ingest(bed.stack, [
    co,
    laterCfo,
    event('ev-du-tp', 'fundraising', daysAgo(3), co.id, { data: { funding_type: 'Series A' } }),
  ]);
  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'CFOs of raising companies',
    status: 'active',
    config: { companies: ['du-tp.com'], targetPersonas: ['Chief Financial Officer'] },
  });
  await settled(bed.stack, signal.id);
  const [lead] = await allLeads(bed.api, signal.id);
  expect(lead.contact.last_name).toBe('Zed');

  // A second CFO (who would now be picked first for this company) does not make the event a lead again.
  await ingest(bed.stack, [person('du-tp-abe', co.id, { title: 'CFO', lastName: 'Abe' })]);
  await evaluateNow(bed.stack, signal.id);
  expect((await allLeads(bed.api, signal.id)).map((l) => l.contact.last_name)).toEqual(['Zed']);
});

/** `count` people of one company who took the title `title` in the last ten days, oldest first. */
async function jobChangers(slug: string, title: string, count: number) {
  const now = bed.stack.services.clock.now().getTime();
  const co = company(slug);
  const records: any[] = [co];
  for (let i = 0; i < count; i++) {
    const who = person(`${slug}-${i}`, co.id, { title });
    records.push(
      who,
      event(`ev-${slug}-${i}`, 'job_change', daysAgo(10 - (i * 5) / count, now), co.id, {
        personId: who.id,
        data: jobChangeData(title, co.name),
      }),
    );
  }
  await ingest(bed.stack, records);
}

test('concurrent producers of one signal (a retried batch racing its first attempt) never make an event a lead twice', async () => {
  await jobChangers('du-race', 'Head of Data', 20);
  // Created as a draft so that only the producers below run; then marked active in the database
  // without waking a workflow.
  const signal = await createSignal(bed.api, 'job-changes', {
    name: 'Data heads',
    duplicateHandling: 'allow',
    config: { jobTitles: ['Head of Data'] },
  });
  await bed.stack.db.query(`UPDATE signals SET status = 'active' WHERE id = $1`, [signal.id]);
  const batches = await Promise.all([0, 1, 2, 3].map(() => bed.stack.services.leadProduction.produceBatch(signal.id)));
  expect(batches.reduce((sum, b) => sum + b.produced, 0)).toBe(20);

  const leads = await allLeads(bed.api, signal.id);
  expect(leads).toHaveLength(20);
  expect(new Set(leads.map((l) => l.contact.lead_id)).size).toBe(20);
  expect((await allUsage(bed.api, signal.id)).filter((u) => u.operation === 'lead')).toHaveLength(20);
  expect(await getSignal(bed.api, signal.id)).toMatchObject({ leadsTotal: 20, leadsToday: 20 });
});

test('a lead is made with a pending delivery per route of its signal, whose ids its workflow gets', async () => {
  await jobChangers('du-routes', 'Chief Revenue Officer', 3);
  const signal = await createSignal(bed.api, 'job-changes', {
    name: 'Revenue chiefs',
    webhookUrl: 'http://127.0.0.1:9/leads',
    config: { jobTitles: ['Chief Revenue Officer'] },
  });
  // Active and routed to a sequencer in the database only: no workflow runs, the test produces.
  await bed.stack.db.query(
    `UPDATE signals SET status = 'active', destinations = '{"lemlist": {"campaignId": "camp-1"}}' WHERE id = $1`,
    [signal.id],
  );
  const batch = await bed.stack.services.leadProduction.produceBatch(signal.id);
  expect(batch.leads).toHaveLength(3);

  const rows: Array<{ id: string; lead_id: string; route: string; target: string; status: string; attempts: number }> =
    await bed.stack.db.query(
      `SELECT id, lead_id, route, target, status, attempts FROM deliveries WHERE signal_id = $1 ORDER BY lead_id, route`,
      [signal.id],
    );
  expect(rows).toHaveLength(6);
  for (const lead of batch.leads) {
    expect(lead.routes).toEqual(['webhook', 'lemlist']);
    expect(lead.summary).toMatch(/→ webhook, lemlist$/);
    const own = rows.filter((row) => row.lead_id === lead.leadId);
    expect(
      own.map((row) => ({ route: row.route, target: row.target, status: row.status, attempts: row.attempts })),
    ).toEqual([
      { route: 'lemlist', target: 'camp-1', status: 'pending', attempts: 0 },
      { route: 'webhook', target: 'http://127.0.0.1:9/leads', status: 'pending', attempts: 0 },
    ]);
    const byRoute = Object.fromEntries(own.map((row) => [row.route, row.id]));
    expect(lead.deliveries).toEqual([
      { deliveryId: byRoute.webhook, route: 'webhook' },
      { deliveryId: byRoute.lemlist, route: 'lemlist' },
    ]);
  }
  // Answered again until acknowledged as started, with the same rows: none is made twice.
  const again = await bed.stack.services.leadProduction.produceBatch(signal.id);
  expect(again.produced).toBe(0);
  expect(again.leads.map((lead) => lead.deliveries)).toEqual(batch.leads.map((lead) => lead.deliveries));
  const [{ count }] = await bed.stack.db.query(`SELECT count(*)::int AS count FROM deliveries WHERE signal_id = $1`, [
    signal.id,
  ]);
  expect(count).toBe(6);
});

test('30d: the same person again only once 30 days have passed since their last lead', async () => {
  await twoJobChanges('du-30d', 'CIO', 20, 5);
  const signal = await createSignal(bed.api, 'job-changes', {
    name: 'CIOs monthly',
    status: 'active',
    duplicateHandling: '30d',
    config: { jobTitles: ['Chief Information Officer'] },
  });
  expect(signal.duplicateHandling).toBe('30d');
  await settled(bed.stack, signal.id);
  const first = await allLeads(bed.api, signal.id);
  expect(newCompanies(first)).toEqual(['du-30d-one Labs']);

  // 29 days later: still inside the window.
  bed.stack.services.clock.advance(29 * DAY_MS);
  await evaluateNow(bed.stack, signal.id);
  expect(await allLeads(bed.api, signal.id)).toHaveLength(1);

  // Past 30 days: the second event is a lead.
  bed.stack.services.clock.advance(2 * DAY_MS);
  await evaluateNow(bed.stack, signal.id);
  const leads = await allLeads(bed.api, signal.id);
  expect(newCompanies(leads)).toEqual(['du-30d-one Labs', 'du-30d-two Labs']);
  const [second, firstLead] = leads;
  expect(Date.parse(second.contact.created_at) - Date.parse(firstLead.contact.created_at)).toBeGreaterThan(30 * DAY_MS);
  // And not a third time.
  await evaluateNow(bed.stack, signal.id);
  expect(await allLeads(bed.api, signal.id)).toHaveLength(2);
});
