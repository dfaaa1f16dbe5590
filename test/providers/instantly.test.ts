import { InstantlySequencer } from '../../src/providers/sequencers/instantly';
import { start, type InstantlyServer } from '../vendors/instantly-server';
import { rejection, sequencerLead } from './fixtures';

describe('Instantly sequencer against a local Instantly', () => {
  let vendor: InstantlyServer;
  let instantly: InstantlySequencer;

  beforeEach(async () => {
    vendor = await start();
    instantly = new InstantlySequencer({ baseUrl: vendor.url, timeoutMs: 2000 });
  });
  afterEach(() => vendor.close());

  describe('validateKey', () => {
    it('accepts a good key with Bearer auth and names the workspace', async () => {
      await expect(instantly.validateKey(vendor.apiKey)).resolves.toEqual({ ok: true, accountLabel: 'Hooli Outbound' });
      expect(vendor.received[0]).toMatchObject({ method: 'GET', path: '/workspaces/current' });
      expect(vendor.received[0]?.headers.authorization).toBe(`Bearer ${vendor.apiKey}`);
    });

    it('reports a refused key as ok:false', async () => {
      await expect(instantly.validateKey('wrong-key')).resolves.toMatchObject({ ok: false });
    });

    it('throws a retryable error on a vendor 500 instead of refusing the key', async () => {
      vendor.failNext(500);
      await expect(rejection(instantly.validateKey(vendor.apiKey))).resolves.toMatchObject({
        status: 500,
        permanent: false,
      });
    });
  });

  describe('listCampaigns', () => {
    it('follows next_starting_after and maps numeric statuses to words', async () => {
      const statuses = [0, 1, 2, 3, 4, -1, -2, -99];
      for (let i = 0; i < 205; i++) vendor.addCampaign(`Campaign ${i}`, statuses[i % statuses.length]);
      const campaigns = await instantly.listCampaigns(vendor.apiKey);
      expect(campaigns).toHaveLength(205);
      expect(campaigns.slice(0, 8).map((c) => c.status)).toEqual([
        'draft',
        'active',
        'paused',
        'completed',
        'running_subsequences',
        'accounts_unhealthy',
        'bounce_protect',
        'suspended',
      ]);
      expect(campaigns[0]).toEqual({ id: vendor.campaigns[0]?.id, name: 'Campaign 0', status: 'draft' });
      expect(vendor.received.map((r) => r.query)).toEqual([
        { limit: '100' },
        { limit: '100', starting_after: vendor.campaigns[99]?.id },
        { limit: '100', starting_after: vendor.campaigns[199]?.id },
      ]);
    });
  });

  describe('addLead', () => {
    it('posts the nine variables to POST /leads with skip_if_in_campaign', async () => {
      const campaign = vendor.addCampaign('Founders');
      await expect(instantly.addLead(vendor.apiKey, campaign.id, sequencerLead())).resolves.toEqual({
        added: true,
        duplicate: false,
      });
      expect(vendor.received[0]?.headers['content-type']).toBe('application/json');
      expect(vendor.leads[0]?.body).toEqual({
        campaign: campaign.id,
        email: 'richard@piedpiper.com',
        first_name: 'Richard',
        last_name: 'Hendricks',
        company_name: 'Pied Piper',
        job_title: 'CEO',
        website: 'https://piedpiper.com',
        // The nine by the specification's names, for templates written against it.
        custom_variables: sequencerLead(),
        skip_if_in_campaign: true,
      });
    });

    it('reports a lead already in the campaign as a duplicate', async () => {
      const campaign = vendor.addCampaign('Founders');
      await instantly.addLead(vendor.apiKey, campaign.id, sequencerLead());
      await expect(instantly.addLead(vendor.apiKey, campaign.id, sequencerLead())).resolves.toEqual({
        added: false,
        duplicate: true,
      });
      expect(vendor.leads).toHaveLength(1);
    });

    it('throws a retryable error on a 500', async () => {
      const campaign = vendor.addCampaign('Founders');
      vendor.failNext(500);
      await expect(rejection(instantly.addLead(vendor.apiKey, campaign.id, sequencerLead()))).resolves.toMatchObject({
        vendor: 'instantly',
        status: 500,
        permanent: false,
      });
    });

    it('throws with retryAfterSeconds on a 429 with Retry-After: 2', async () => {
      const campaign = vendor.addCampaign('Founders');
      vendor.failNext(429, { retryAfter: 2 });
      await expect(rejection(instantly.addLead(vendor.apiKey, campaign.id, sequencerLead()))).resolves.toMatchObject({
        status: 429,
        permanent: false,
        retryAfterSeconds: 2,
      });
    });

    it('throws a permanent error on a 400', async () => {
      const campaign = vendor.addCampaign('Founders');
      vendor.failNext(400, {
        body: { statusCode: 400, error: 'Bad Request', message: 'body/email must match format "email"' },
      });
      const error = await rejection(instantly.addLead(vendor.apiKey, campaign.id, sequencerLead()));
      expect(error).toMatchObject({ status: 400, permanent: true });
      expect(error.message).toContain('must match format');
    });

    it('throws a permanent error on a refused key (401)', async () => {
      const campaign = vendor.addCampaign('Founders');
      await expect(rejection(instantly.addLead('wrong-key', campaign.id, sequencerLead()))).resolves.toMatchObject({
        status: 401,
        permanent: true,
      });
    });

    it('never repeats the key in an error message, even when Instantly echoes it', async () => {
      vendor.failNext(500, { body: { message: `Bearer ${vendor.apiKey} rejected` } });
      const error = await rejection(instantly.addLead(vendor.apiKey, 'c', sequencerLead()));
      expect(error.message).not.toContain(vendor.apiKey);
    });
  });
});
