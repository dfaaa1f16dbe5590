import { allLeads, company, createSignal, daysAgo, event, ingest, settled, uid, leadsTestBed } from './fixtures';

/**
 * Stores, apps and pages on a hosting platform's subdomains (suffixes of the public-suffix
 * list's private section) are companies of their own, on ingest and on the watchlist alike.
 */

const bed = leadsTestBed({ credits: 1000 });

test('a watchlist of two stores on one platform watches those two stores, and their leads name their own sites', async () => {
  const tag = uid('shop');
  const stores = ['north', 'south', 'east'].map((name) =>
    company(`${tag}-${name}`, {
      domain: `https://www.${tag}-${name}.myshopify.com/collections`,
      linkedinUrl: null,
      name: `${tag} ${name} store`,
    }),
  );
  await ingest(bed.stack, [
    ...stores,
    ...stores.map((store, i) =>
      event(`ev-${store.id}`, 'fundraising', daysAgo(3 + i), store.id, {
        data: { funding_type: 'Seed', funding_amount_usd: 1_000_000, announcement_date: daysAgo(3 + i).slice(0, 10) },
      }),
    ),
  ]);
  const stored = await bed.stack.db.query(`SELECT domain FROM companies WHERE id = ANY($1::text[]) ORDER BY id`, [
    stores.map((s) => s.id),
  ]);
  expect(stored.map((row: { domain: string }) => row.domain).sort()).toEqual(
    ['east', 'north', 'south'].map((name) => `${tag}-${name}.myshopify.com`),
  );

  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Two stores',
    status: 'active',
    config: { companies: [`${tag}-north.myshopify.com`, `https://${tag}-south.myshopify.com/`] },
  });
  expect(signal.watchlist).toEqual({ watched: 2, rejected: 0, alreadyWatched: 0 });
  await settled(bed.stack, signal.id);

  const leads = await allLeads(bed.api, signal.id);
  expect(leads.map((lead) => lead.company.website).sort()).toEqual([
    `https://${tag}-north.myshopify.com`,
    `https://${tag}-south.myshopify.com`,
  ]);
});

test("the platform's own domain is still one company", async () => {
  const signal = await createSignal(bed.api, 'account-watchlist', {
    name: 'Platform',
    config: { companies: ['myshopify.com', 'https://github.io/'] },
  });
  const watched = await bed.api.get(`/watchlists/${signal.id}/companies`);
  expect(watched.body.items.map((item: { domain: string }) => item.domain).sort()).toEqual([
    'github.io',
    'myshopify.com',
  ]);
});
