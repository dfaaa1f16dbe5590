import { bulkEnrichmentWorkflowId } from '../../src/temporal/contract';
import type { Stack } from '../setup/stack';
import { createAccount } from '../setup/http';
import {
  client,
  creditsOf,
  eventually,
  expectStatus,
  ingestStore,
  startEnrichmentStack,
  type ApiClient,
} from './fixtures';

const LATENCY_MS = 800;

let stack: Stack;

beforeAll(async () => {
  stack = await startEnrichmentStack({ ENRICHMENT_LIVE_LATENCY_MS: String(LATENCY_MS) });
  await ingestStore(stack);
});
afterAll(() => stack.stop());

async function account(credits: number): Promise<ApiClient> {
  return client(stack, await createAccount(stack, { credits }));
}

/** Five kinds of entry in turn: three that are found, two that are not. */
function contactAt(i: number) {
  switch (i % 5) {
    case 0:
      return { linkedinUrl: 'https://www.linkedin.com/in/jane-doe' };
    case 1:
      return { email: `nobody-${i}@acme.io` };
    case 2:
      return { firstName: 'Greta', lastName: 'Berg', companyDomain: 'initech.de' };
    case 3:
      return { email: 'sam@acme.io' };
    default:
      return { linkedinUrl: `https://www.linkedin.com/in/nobody-${i}` };
  }
}
const FOUND = new Set([0, 2, 3]);

describe('POST /api/v1/enrichment/contacts/bulk', () => {
  test('the job progresses (done between 0 and total while it runs) and completes with every result; 1 credit per found contact', async () => {
    const api = await account(100);
    const total = 25;
    const contacts = Array.from({ length: total }, (_, i) => ({ ...contactAt(i), freshness: 'live' }));
    const { jobId } = expectStatus(await api.post('/enrichment/contacts/bulk', { contacts }), 202);
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);

    const seen: number[] = [];
    const finished = await eventually(
      async () => {
        const status = expectStatus(await api.get(`/enrichment/contacts/bulk/${jobId}`), 200);
        expect(status.total).toBe(total);
        expect(status.results).toHaveLength(status.done);
        seen.push(status.done);
        return status.status === 'completed' ? status : undefined;
      },
      60_000,
      50,
    );

    expect(seen.some((done) => done > 0 && done < total)).toBe(true);
    // `done` only ever rises.
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(finished.done).toBe(total);
    expect(finished.results.map((r: { index: number }) => r.index)).toEqual(Array.from({ length: total }, (_, i) => i));
    for (const result of finished.results) {
      if (FOUND.has(result.index % 5)) {
        expect(result).toMatchObject({
          found: true,
          contact: { first_name: expect.any(String), email: expect.stringContaining('@') },
          company: { name: expect.any(String) },
        });
      } else {
        expect(result).toEqual({ index: result.index, found: false, contact: null, company: null });
      }
    }
    expect(finished.results[0].contact).toMatchObject({
      first_name: 'Jane',
      last_name: 'Doe',
      email: 'jane.doe@acme.io',
      phone: '',
    });
    expect(finished.results[2].company).toMatchObject({ name: 'Initech', website: 'https://initech.de' });

    const found = finished.results.filter((r: { found: boolean }) => r.found).length;
    expect(found).toBe(15);
    const credits = await creditsOf(api);
    expect(credits.balance).toBe(100 - found);
    expect(credits.charges).toEqual(Array(found).fill({ operation: 'enrichment_contact', credits: -1 }));
  });

  test("the job's workflow answers the contacts it looked up, as the job's done count says", async () => {
    const api = await account(100);
    const total = 12;
    const contacts = Array.from({ length: total }, (_, i) => contactAt(i));
    const { jobId } = expectStatus(await api.post('/enrichment/contacts/bulk', { contacts }), 202);
    // Each slice's UPDATE … RETURNING done is what the workflow keeps (it was 0 while TypeORM's [rows, count] was read as rows).
    const result = await stack.temporal.workflow.getHandle(bulkEnrichmentWorkflowId(jobId)).result();
    expect(result).toEqual({ done: total });
    const status = expectStatus(await api.get(`/enrichment/contacts/bulk/${jobId}`), 200);
    expect(status).toMatchObject({ status: 'completed', done: total });
  });

  test('contacts found after the credits run out carry INSUFFICIENT_CREDITS and cost nothing', async () => {
    const api = await account(2);
    const contacts = Array.from({ length: 4 }, () => ({ email: 'jane.doe@acme.io' }));
    const { jobId } = expectStatus(await api.post('/enrichment/contacts/bulk', { contacts }), 202);
    const finished = await eventually(async () => {
      const status = expectStatus(await api.get(`/enrichment/contacts/bulk/${jobId}`), 200);
      return status.status === 'completed' ? status : undefined;
    });
    expect(finished.results.filter((r: { found: boolean }) => r.found)).toHaveLength(2);
    const unpaid = finished.results.filter((r: { error?: { code: string } }) => r.error);
    expect(unpaid).toHaveLength(2);
    for (const result of unpaid)
      expect(result).toMatchObject({ found: false, contact: null, error: { code: 'INSUFFICIENT_CREDITS' } });
    expect(await creditsOf(api)).toEqual({
      balance: 0,
      charges: Array(2).fill({ operation: 'enrichment_contact', credits: -1 }),
    });
  });

  test('bodies: 1 to 1000 valid contact references, else 422; no credits at all is 402', async () => {
    const api = await account(10);
    const tooMany = Array.from({ length: 1001 }, () => ({ email: 'jane.doe@acme.io' }));
    for (const body of [
      { contacts: [] },
      { contacts: tooMany },
      {},
      { contacts: [{ email: 'jane.doe@acme.io' }, { firstName: 'Jane' }] },
      { contacts: [{ mail: 'x@y.z' }] },
    ]) {
      const answer = await api.post('/enrichment/contacts/bulk', body);
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({
        status: 422,
        code: 'VALIDATION_ERROR',
      });
    }
    const invalid = await api.post('/enrichment/contacts/bulk', {
      contacts: [{ email: 'jane.doe@acme.io' }, { firstName: 'Jane' }],
    });
    expect(invalid.body.error.details).toEqual([
      { field: 'contacts.1', message: expect.stringMatching(/linkedinUrl, or email/) },
    ]);
    const atTheLimit = await api.post('/enrichment/contacts/bulk', { contacts: tooMany.slice(0, 1000) });
    expect(atTheLimit.status).toBe(202);

    const broke = await account(0.5);
    const refused = await broke.post('/enrichment/contacts/bulk', { contacts: [{ email: 'jane.doe@acme.io' }] });
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({
      status: 402,
      code: 'INSUFFICIENT_CREDITS',
    });
  });

  test("another account's job is 404", async () => {
    const owner = await account(10);
    const { jobId } = expectStatus(
      await owner.post('/enrichment/contacts/bulk', { contacts: [{ email: 'nobody@acme.io' }] }),
      202,
    );
    const stranger = await account(10);
    expect((await stranger.get(`/enrichment/contacts/bulk/${jobId}`)).status).toBe(404);
  });
});

describe('POST /api/v1/enrichment/phone', () => {
  test('a found phone completes the lookup and costs 5 credits', async () => {
    const api = await account(10);
    const { lookupId } = expectStatus(
      await api.post('/enrichment/phone', { linkedinUrl: 'https://www.linkedin.com/in/jane-doe' }),
      202,
    );
    const first = expectStatus(await api.get(`/enrichment/phone/${lookupId}`), 200);
    expect(['pending', 'completed']).toContain(first.status);
    const done = await eventually(async () => {
      const answer = expectStatus(await api.get(`/enrichment/phone/${lookupId}`), 200);
      return answer.status === 'pending' ? undefined : answer;
    });
    expect(done).toEqual({ status: 'completed', found: true, phone: '+1 512 555 0100' });
    expect(await creditsOf(api)).toEqual({ balance: 5, charges: [{ operation: 'enrichment_phone', credits: -5 }] });
  });

  test('no phone known (or nobody found): completed, found false, nothing charged', async () => {
    const api = await account(10);
    for (const ref of [{ email: 'sam@acme.io' }, { email: 'nobody@acme.io' }]) {
      const { lookupId } = expectStatus(await api.post('/enrichment/phone', ref), 202);
      const done = await eventually(async () => {
        const answer = expectStatus(await api.get(`/enrichment/phone/${lookupId}`), 200);
        return answer.status === 'pending' ? undefined : answer;
      });
      expect(done).toEqual({ status: 'completed', found: false });
    }
    expect(await creditsOf(api)).toEqual({ balance: 10, charges: [] });
  });

  test('a balance under 5 credits is 402 before the lookup; a bad reference is 422', async () => {
    const api = await account(4.5);
    const refused = await api.post('/enrichment/phone', { email: 'jane.doe@acme.io' });
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({
      status: 402,
      code: 'INSUFFICIENT_CREDITS',
    });
    for (const body of [{}, { firstName: 'Jane', lastName: 'Doe' }, { phone: '123' }]) {
      const answer = await api.post('/enrichment/phone', body);
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({
        status: 422,
        code: 'VALIDATION_ERROR',
      });
    }
    expect(await creditsOf(api)).toEqual({ balance: 4.5, charges: [] });
  });
});
