import { startStack, type Stack } from '../setup/stack';
import { call, createAccount, type TestAccount } from '../setup/http';

/** The suppression list's REST routes: normalising, duplicates, scope, paging, the CSV upload. */
let stack: Stack;
let owner: TestAccount;
let other: TestAccount;
let reader: TestAccount;
let signalId: string;
let othersSignalId: string;

const url = (path = '') => `${stack.url}/api/v1/suppressions${path}`;
interface StoredRow {
  kind: string;
  value: string;
  note: string | null;
  signal_id: string | null;
}
const stored = async (accountId: string): Promise<StoredRow[]> =>
  stack.db.query(`SELECT kind, value, note, signal_id FROM suppressions WHERE account_id = $1 ORDER BY kind, value`, [
    accountId,
  ]);

async function createSignal(account: TestAccount): Promise<string> {
  const answer = await call(`${stack.url}/api/v1/signals/job-changes`, {
    token: account.apiKey,
    body: { name: 'CTOs', config: { jobTitles: ['Chief Technology Officer'] } },
  });
  if (answer.status !== 201) throw new Error(answer.text);
  return answer.body.id;
}

beforeAll(async () => {
  stack = await startStack({ worker: false });
  owner = await createAccount(stack, { credits: 10 });
  other = await createAccount(stack, { credits: 10, name: 'Other' });
  reader = await createAccount(stack, { permissions: ['read'], name: 'Reader' });
  signalId = await createSignal(owner);
  othersSignalId = await createSignal(other);
});
afterAll(() => stack?.stop());

describe('adding entries', () => {
  test('one entry is stored normalised; sending it again is a duplicate, not an error', async () => {
    const first = await call(url(), {
      token: owner.apiKey,
      body: { kind: 'email', value: '  Ada.Lovelace@Acme.COM ', note: 'customer' },
    });
    expect(first.status).toBe(200);
    expect(first.body.added).toEqual([
      expect.objectContaining({ kind: 'email', value: 'ada.lovelace@acme.com', note: 'customer', signalId: null }),
    ]);
    expect(first.body.duplicates).toEqual([]);

    const again = await call(url(), { token: owner.apiKey, body: { kind: 'email', value: 'ada.lovelace@acme.com' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      added: [],
      duplicates: [{ index: 0, kind: 'email', value: 'ada.lovelace@acme.com' }],
      rejected: [],
    });
    expect((await stored(owner.accountId)).filter((row) => row.kind === 'email')).toHaveLength(1);
  });

  test('an array adds the usable entries and names the duplicates and the rejected by index', async () => {
    const answer = await call(url(), {
      token: owner.apiKey,
      body: [
        { kind: 'domain', value: 'https://www.Beta.io/about?x=1' },
        { kind: 'company_url', value: 'linkedin.com/company/Gamma-Labs/' },
        { kind: 'domain', value: 'not a domain' },
        { kind: 'domain', value: 'beta.io' },
        { kind: 'company_url', value: 'https://www.linkedin.com/in/someone' },
        { kind: 'domain', value: 'delta.co.uk', signalId },
        { kind: 'domain', value: 'epsilon.com', signalId: othersSignalId },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.added.map((e: { kind: string; value: string }) => `${e.kind}:${e.value}`)).toEqual([
      'domain:beta.io',
      'company_url:https://www.linkedin.com/company/gamma-labs',
      'domain:delta.co.uk',
    ]);
    expect(answer.body.duplicates).toEqual([{ index: 3, kind: 'domain', value: 'beta.io' }]);
    expect(answer.body.rejected).toEqual([
      { index: 2, message: expect.stringContaining('not a domain') },
      { index: 4, message: expect.stringContaining('not a company page') },
      { index: 6, message: expect.stringContaining("not one of the account's signals") },
    ]);
    expect(answer.body.added.find((e: { value: string }) => e.value === 'delta.co.uk').signalId).toBe(signalId);
  });

  test('a bad single entry, an unknown kind or an oversized array is refused and changes nothing', async () => {
    const before = await stored(owner.accountId);
    const badValue = await call(url(), { token: owner.apiKey, body: { kind: 'email', value: 'nobody-at-all' } });
    expect(badValue.status).toBe(422);
    expect(badValue.body.error.details).toEqual([
      { field: 'value', message: expect.stringContaining('not an email address') },
    ]);
    const badKind = await call(url(), { token: owner.apiKey, body: { kind: 'phone', value: '+1 555' } });
    expect(badKind.status).toBe(422);
    expect(badKind.body.error.code).toBe('VALIDATION_ERROR');
    const tooMany = await call(url(), {
      token: owner.apiKey,
      body: Array.from({ length: 10_001 }, (_, i) => ({ kind: 'email', value: `p${i}@zeta.com` })),
    });
    expect(tooMany.status).toBe(422);
    const readOnly = await call(url(), { token: reader.apiKey, body: { kind: 'email', value: 'x@y.com' } });
    expect(readOnly.status).toBe(403);
    expect(await stored(owner.accountId)).toEqual(before);
  });
});

describe('listing and removing', () => {
  test('pages newest first, filters by kind and by signal, and shows only the account’s own', async () => {
    const all = await call(url('?limit=2'), { token: owner.apiKey });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.items).toHaveLength(2);
    expect(all.body.hasMore).toBe(true);
    const domains = await call(url('?kind=domain'), { token: owner.apiKey });
    expect(domains.body.items.map((e: { value: string }) => e.value).sort()).toEqual(['beta.io', 'delta.co.uk']);
    const scoped = await call(url(`?signalId=${signalId}`), { token: owner.apiKey });
    expect(scoped.body.items.map((e: { value: string }) => e.value)).toEqual(['delta.co.uk']);
    const others = await call(url(), { token: other.apiKey });
    expect(others.body).toMatchObject({ total: 0, items: [] });
    const badKind = await call(url('?kind=phone'), { token: owner.apiKey });
    expect(badKind.status).toBe(400);
  });

  test('delete removes one entry of the account; another account’s id or a second delete is 404', async () => {
    const [entry] = (await call(url('?kind=company_url'), { token: owner.apiKey })).body.items;
    expect((await call(url(`/${entry.id}`), { method: 'DELETE', token: other.apiKey })).status).toBe(404);
    expect((await call(url(`/${entry.id}`), { method: 'DELETE', token: owner.apiKey })).status).toBe(204);
    expect((await call(url(`/${entry.id}`), { method: 'DELETE', token: owner.apiKey })).status).toBe(404);
    expect((await stored(owner.accountId)).map((row) => row.kind)).not.toContain('company_url');
  });
});

describe('CSV upload', () => {
  const upload = (csv: string, query = '', type = 'text/csv') =>
    call(url(`/import${query}`), { token: other.apiKey, rawBody: csv, headers: { 'Content-Type': type } });

  test('counts accepted, duplicate and rejected lines, each rejection with its line number', async () => {
    const csv = [
      'kind,value,note',
      'email,Ops@Omega.com,"met at a fair, 2025"',
      'domain,omega.com,"two',
      'lines"',
      'phone,+1 555 0100,',
      'email,ops@omega.com,again',
      'domain,nothing here,',
      'company_url,https://www.linkedin.com/company/omega,',
      '',
    ].join('\r\n');
    const answer = await upload(csv);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      accepted: 3,
      duplicates: 1,
      rejected: 2,
      errors: [
        { line: 5, message: 'kind must be one of email, domain, company_url' },
        { line: 7, message: expect.stringContaining('not a domain') },
      ],
    });
    const rows = await stored(other.accountId);
    expect(rows).toEqual([
      { kind: 'company_url', value: 'https://www.linkedin.com/company/omega', note: null, signal_id: null },
      { kind: 'domain', value: 'omega.com', note: 'two\nlines', signal_id: null },
      { kind: 'email', value: 'ops@omega.com', note: 'met at a fair, 2025', signal_id: null },
    ]);
  });

  test('a signal scope applies to every line; a signal of another account is 404', async () => {
    const scoped = await upload('kind,value\nemail,ceo@sigma.com\n', `?signalId=${othersSignalId}`);
    expect(scoped.body).toMatchObject({ accepted: 1, rejected: 0 });
    expect((await stored(other.accountId)).find((row) => row.value === 'ceo@sigma.com')?.signal_id).toBe(
      othersSignalId,
    );
    expect((await upload('kind,value\nemail,cfo@sigma.com\n', `?signalId=${signalId}`)).status).toBe(404);
  });

  test('no header, JSON instead of CSV, or an empty body is refused and changes nothing', async () => {
    const before = await stored(other.accountId);
    const noHeader = await upload('email,a@b.com\n');
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.error.message).toContain('kind,value,note');
    expect((await upload('[]', '', 'application/json')).status).toBe(400);
    expect((await upload('   ')).status).toBe(400);
    expect(await stored(other.accountId)).toEqual(before);
  });
});
