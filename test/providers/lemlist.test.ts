import { LemlistSequencer } from '../../src/providers/sequencers/lemlist';
import { start, type LemlistServer } from '../vendors/lemlist-server';
import { rejection, sequencerLead } from './fixtures';

describe('lemlist sequencer against a local lemlist', () => {
  let vendor: LemlistServer;
  let lemlist: LemlistSequencer;

  beforeEach(async () => {
    vendor = await start();
    lemlist = new LemlistSequencer({ baseUrl: vendor.url, timeoutMs: 2000 });
  });
  afterEach(() => vendor.close());

  describe('validateKey', () => {
    it('accepts a good key with Basic auth (empty user, key as password) and names the team', async () => {
      await expect(lemlist.validateKey(vendor.apiKey)).resolves.toEqual({ ok: true, accountLabel: 'Pied Piper' });
      const [call] = vendor.received;
      expect(call).toMatchObject({ method: 'GET', path: '/team', query: {} });
      expect(call?.headers.authorization).toBe(`Basic ${Buffer.from(`:${vendor.apiKey}`).toString('base64')}`);
    });

    it('reports a refused key as ok:false', async () => {
      const check = await lemlist.validateKey('wrong-key');
      expect(check.ok).toBe(false);
      expect(check).toMatchObject({ reason: expect.stringContaining('401') });
    });

    it('throws a retryable error on a vendor outage instead of refusing the key', async () => {
      vendor.failNext(503);
      const error = await rejection(lemlist.validateKey(vendor.apiKey));
      expect(error).toMatchObject({ vendor: 'lemlist', status: 503, permanent: false });
    });

    it('does not follow a redirect: a 3xx is permanent', async () => {
      vendor.failNext(302, { headers: { location: `${vendor.url}/team` } });
      const error = await rejection(lemlist.validateKey(vendor.apiKey));
      expect(error).toMatchObject({ status: 302, permanent: true });
      expect(vendor.received).toHaveLength(1);
    });
  });

  describe('listCampaigns', () => {
    it('pages through the v2 list (100 a page) and keeps lemlist status words', async () => {
      for (let i = 1; i <= 150; i++) vendor.addCampaign(`Campaign ${i}`, i === 2 ? 'paused' : 'running');
      const campaigns = await lemlist.listCampaigns(vendor.apiKey);
      expect(campaigns).toHaveLength(150);
      expect(campaigns[0]).toEqual({ id: 'cam_1', name: 'Campaign 1', status: 'running' });
      expect(campaigns[1]).toEqual({ id: 'cam_2', name: 'Campaign 2', status: 'paused' });
      expect(vendor.received.map((r) => r.query)).toEqual([
        { version: 'v2', offset: '0', limit: '100', page: '1' },
        { version: 'v2', offset: '100', limit: '100', page: '2' },
      ]);
    });

    it('reads the older bare-array shape, which has no status', async () => {
      vendor.legacyCampaignList = true;
      vendor.addCampaign('Old style');
      await expect(lemlist.listCampaigns(vendor.apiKey)).resolves.toEqual([
        { id: 'cam_1', name: 'Old style', status: 'unknown' },
      ]);
    });
  });

  describe('addLead', () => {
    it('posts the nine variables to /campaigns/{id}/leads/{email}?deduplicate=true', async () => {
      const campaign = vendor.addCampaign('Founders');
      await expect(lemlist.addLead(vendor.apiKey, campaign._id, sequencerLead())).resolves.toEqual({
        added: true,
        duplicate: false,
      });
      const [call] = vendor.received;
      expect(call?.rawUrl).toBe(`/api/campaigns/${campaign._id}/leads/richard%40piedpiper.com?deduplicate=true`);
      expect(call?.headers['content-type']).toBe('application/json');
      expect(vendor.leads).toEqual([
        {
          campaignId: campaign._id,
          email: 'richard@piedpiper.com',
          query: { deduplicate: 'true' },
          // lemlist's own title field, and the nine by the specification's names.
          body: { jobTitle: 'CEO', ...sequencerLead() },
        },
      ]);
    });

    it('reports a lead already in this campaign (409) as a duplicate', async () => {
      const campaign = vendor.addCampaign('Founders');
      await lemlist.addLead(vendor.apiKey, campaign._id, sequencerLead());
      await expect(lemlist.addLead(vendor.apiKey, campaign._id, sequencerLead())).resolves.toEqual({
        added: false,
        duplicate: true,
      });
      expect(vendor.leads).toHaveLength(1);
    });

    it('reports a lead already in another campaign (400 "already exists") as a duplicate', async () => {
      const first = vendor.addCampaign('Founders');
      const second = vendor.addCampaign('CTOs');
      await lemlist.addLead(vendor.apiKey, first._id, sequencerLead());
      await expect(lemlist.addLead(vendor.apiKey, second._id, sequencerLead())).resolves.toEqual({
        added: false,
        duplicate: true,
      });
    });

    it('throws a retryable error on a 500', async () => {
      const campaign = vendor.addCampaign('Founders');
      vendor.failNext(500);
      const error = await rejection(lemlist.addLead(vendor.apiKey, campaign._id, sequencerLead()));
      expect(error).toMatchObject({ status: 500, permanent: false, retryAfterSeconds: undefined });
    });

    it('throws with retryAfterSeconds on a 429 with Retry-After: 2', async () => {
      const campaign = vendor.addCampaign('Founders');
      vendor.failNext(429, { retryAfter: 2 });
      const error = await rejection(lemlist.addLead(vendor.apiKey, campaign._id, sequencerLead()));
      expect(error).toMatchObject({ status: 429, permanent: false, retryAfterSeconds: 2 });
    });

    it('throws a permanent error on a 400 that is not a duplicate', async () => {
      const campaign = vendor.addCampaign('Founders');
      vendor.failNext(400, { body: { message: 'Invalid email' } });
      const error = await rejection(lemlist.addLead(vendor.apiKey, campaign._id, sequencerLead()));
      expect(error).toMatchObject({ status: 400, permanent: true });
      expect(error.message).toContain('Invalid email');
    });

    it('throws a permanent error for an unknown campaign (404)', async () => {
      const error = await rejection(lemlist.addLead(vendor.apiKey, 'cam_missing', sequencerLead()));
      expect(error).toMatchObject({ status: 404, permanent: true });
    });

    it('refuses a lead without e-mail permanently, without calling lemlist', async () => {
      const error = await rejection(lemlist.addLead(vendor.apiKey, 'cam_1', sequencerLead({ email: '' })));
      expect(error.permanent).toBe(true);
      expect(vendor.received).toHaveLength(0);
    });

    it('treats no answer within the time-out as retryable', async () => {
      const slow = new LemlistSequencer({ baseUrl: vendor.url, timeoutMs: 100 });
      const campaign = vendor.addCampaign('Founders');
      vendor.stallNext(1000);
      const error = await rejection(slow.addLead(vendor.apiKey, campaign._id, sequencerLead()));
      expect(error).toMatchObject({ permanent: false, status: undefined });
      expect(error.message).toContain('no answer within 100 ms');
    });

    it('never repeats the key in an error message, even when lemlist echoes it', async () => {
      vendor.failNext(500, { body: { message: `key ${vendor.apiKey} is broken` } });
      const error = await rejection(lemlist.addLead(vendor.apiKey, 'cam_1', sequencerLead()));
      expect(error.message).not.toContain(vendor.apiKey);
    });
  });

  it('treats a refused connection as retryable', async () => {
    await vendor.close();
    const error = await rejection(lemlist.listCampaigns(vendor.apiKey));
    expect(error).toMatchObject({ vendor: 'lemlist', permanent: false, status: undefined });
    vendor = await start();
  });
});
