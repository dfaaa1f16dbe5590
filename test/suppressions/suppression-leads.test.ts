import { startStack, type Stack } from '../setup/stack';
import { evaluateNow } from '../setup/evaluation';
import { call, createAccount, type TestAccount } from '../setup/http';

/**
 * A suppressed email, domain or company page is never produced and never charged, the funnel
 * says so, and removing the entry lets a later evaluation produce again. No worker runs: the
 * test evaluates by calling production as the signal workflow does.
 */
let stack: Stack;
let owner: TestAccount;
let signalId: string;
let otherSignalId: string;

const api = (path: string, init: Parameters<typeof call>[1] = {}) =>
  call(`${stack.url}/api/v1${path}`, { token: owner.apiKey, ...init });

const evaluate = async (signalId: string) => (await evaluateNow(stack, signalId)).produced;

const leadPeople = async (id: string) =>
  (
    await stack.db.query(`SELECT e.person_id FROM leads l JOIN events e ON e.id = l.event_id WHERE l.signal_id = $1`, [
      id,
    ])
  )
    .map((row: { person_id: string }) => row.person_id)
    .sort();

const balance = async () => (await api('/credits/balance')).body.balance as number;

async function createSignal(name: string): Promise<string> {
  const answer = await api('/signals/job-changes', {
    body: { name, status: 'active', config: { jobTitles: ['Chief Technology Officer'] } },
  });
  if (answer.status !== 201) throw new Error(answer.text);
  return answer.body.id;
}

beforeAll(async () => {
  stack = await startStack({ worker: false });
  owner = await createAccount(stack, { credits: 100 });
  await stack.db.query(`INSERT INTO companies (id, name, name_key, domain, linkedin_url) VALUES
    ('sc_acme',  'Acme',  'acme',  'acme.com',  NULL),
    ('sc_beta',  'Beta',  'beta',  'beta.io',   'https://www.linkedin.com/company/beta'),
    ('sc_gamma', 'Gamma', 'gamma', 'gamma.dev', NULL),
    ('sc_free',  'Free',  'free',  'free.org',  NULL)`);
  await stack.db.query(`INSERT INTO people (id, first_name, last_name, title, persona, company_id, email) VALUES
    ('sp_ada', 'Ada', 'A', 'CTO', 'Chief Technology Officer', 'sc_acme',  'Ada@Acme.com'),
    ('sp_bob', 'Bob', 'B', 'CTO', 'Chief Technology Officer', 'sc_acme',  'bob@acme.com'),
    ('sp_cy',  'Cy',  'C', 'CTO', 'Chief Technology Officer', 'sc_beta',  NULL),
    ('sp_di',  'Di',  'D', 'CTO', 'Chief Technology Officer', 'sc_gamma', NULL),
    ('sp_ed',  'Ed',  'E', 'CTO', 'Chief Technology Officer', 'sc_free',  'ed@gamma.dev'),
    ('sp_fay', 'Fay', 'F', 'CTO', 'Chief Technology Officer', 'sc_free',  'fay@free.org')`);
  await stack.db.query(`INSERT INTO events (id, type, occurred_at, company_id, person_id) VALUES
    ('se_ada', 'job_change', now() - interval '6 days', 'sc_acme',  'sp_ada'),
    ('se_bob', 'job_change', now() - interval '5 days', 'sc_acme',  'sp_bob'),
    ('se_cy',  'job_change', now() - interval '4 days', 'sc_beta',  'sp_cy'),
    ('se_di',  'job_change', now() - interval '3 days', 'sc_gamma', 'sp_di'),
    ('se_ed',  'job_change', now() - interval '2 days', 'sc_free',  'sp_ed'),
    ('se_fay', 'job_change', now() - interval '1 days', 'sc_free',  'sp_fay')`);
  signalId = await createSignal('CTOs');
  otherSignalId = await createSignal('Other CTOs');
});
afterAll(() => stack?.stop());

test('suppressed emails, domains and company pages produce no lead and no charge; the funnel counts them', async () => {
  const added = await api('/suppressions', {
    body: [
      { kind: 'email', value: 'ada@acme.com' },
      { kind: 'company_url', value: 'https://linkedin.com/company/beta' },
      { kind: 'domain', value: 'gamma.dev', note: 'competitor' },
      // Scoped to the other signal: this one still produces Fay.
      { kind: 'domain', value: 'free.org', signalId: otherSignalId },
    ],
  });
  expect(added.status).toBe(200);
  expect(added.body.added).toHaveLength(4);
  const before = await balance();

  expect(await evaluate(signalId)).toBe(2);
  // Ada (her email), Cy (his company's page), Di (company at gamma.dev) and Ed (email at gamma.dev) are left out.
  expect(await leadPeople(signalId)).toEqual(['sp_bob', 'sp_fay']);
  expect(await balance()).toBe(before - 2 * 2);

  const funnel = await api(`/signals/${signalId}/funnel`);
  expect(funnel.status).toBe(200);
  expect(funnel.body.stages.find((stage: { filter: string }) => stage.filter === 'suppressed')).toEqual({
    filter: 'suppressed',
    removed: 4,
    remaining: 2,
  });
  expect(funnel.body.leads).toBe(2);

  // The other signal: free.org is suppressed for it, so only Bob.
  expect(await evaluate(otherSignalId)).toBe(1);
  expect(await leadPeople(otherSignalId)).toEqual(['sp_bob']);
});

test('removing an entry lets the next evaluation produce; adding one takes back no lead already produced', async () => {
  const list = await api('/suppressions?kind=email');
  const ada = list.body.items.find((entry: { value: string }) => entry.value === 'ada@acme.com');
  expect((await api(`/suppressions/${ada.id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await api('/suppressions', { body: { kind: 'email', value: 'bob@acme.com' } })).status).toBe(200);
  const before = await balance();

  expect(await evaluate(signalId)).toBe(1);
  expect(await leadPeople(signalId)).toEqual(['sp_ada', 'sp_bob', 'sp_fay']);
  expect(await balance()).toBe(before - 2);
  // Bob's lead came before his entry: it still passes every stage.
  const funnel = await api(`/signals/${signalId}/funnel`);
  expect(funnel.body.leads).toBe(3);
  expect(funnel.body.stages.find((stage: { filter: string }) => stage.filter === 'suppressed').removed).toBe(3);
});
