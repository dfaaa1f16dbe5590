import { SmartleadSequencer } from '../../src/providers/sequencers/smartlead';
import { start, type SmartleadServer } from '../vendors/smartlead-server';
import { rejection, sequencerLead } from './fixtures';

describe('Smartlead sequencer against a local Smartlead', () => {
  let vendor: SmartleadServer;
  let smartlead: SmartleadSequencer;

  beforeEach(async () => {
    vendor = await start();
    smartlead = new SmartleadSequencer({ baseUrl: vendor.url, timeoutMs: 2000 });
  });
  afterEach(() => vendor.close());

  describe('validateKey', () => {
    it('accepts a good key sent only as ?api_key=', async () => {
      await expect(smartlead.validateKey(vendor.apiKey)).resolves.toEqual({ ok: true });
      const [call] = vendor.received;
      expect(call).toMatchObject({ method: 'GET', path: '/campaigns/', query: { api_key: vendor.apiKey } });
      expect(call?.headers.authorization).toBeUndefined();
    });

    it('reports a refused key as ok:false', async () => {
      await expect(smartlead.validateKey('wrong-key')).resolves.toMatchObject({ ok: false });
    });

    it('throws a retryable error on a vendor 502 instead of refusing the key', async () => {
      vendor.failNext(502);
      await expect(rejection(smartlead.validateKey(vendor.apiKey))).resolves.toMatchObject({
        status: 502,
        permanent: false,
      });
    });
  });

  it('lists campaigns with numeric ids as strings and statuses lower-cased', async () => {
    vendor.addCampaign('Founders', 'ACTIVE');
    vendor.addCampaign('CTOs', 'PAUSED');
    vendor.addCampaign('Old', 'DRAFTED');
    await expect(smartlead.listCampaigns(vendor.apiKey)).resolves.toEqual([
      { id: '1001', name: 'Founders', status: 'active' },
      { id: '1002', name: 'CTOs', status: 'paused' },
      { id: '1003', name: 'Old', status: 'drafted' },
    ]);
  });

  describe('addLead', () => {
    it('posts the nine variables as one lead_list entry with the default settings', async () => {
      const campaign = vendor.addCampaign('Founders');
      await expect(smartlead.addLead(vendor.apiKey, String(campaign.id), sequencerLead())).resolves.toEqual({
        added: true,
        duplicate: false,
      });
      const [call] = vendor.received;
      expect(call).toMatchObject({
        method: 'POST',
        path: `/campaigns/${campaign.id}/leads`,
        query: { api_key: vendor.apiKey },
      });
      expect(call?.body).toEqual({
        lead_list: [
          {
            email: 'richard@piedpiper.com',
            first_name: 'Richard',
            last_name: 'Hendricks',
            company_name: 'Pied Piper',
            website: 'https://piedpiper.com',
            // The nine by the specification's names, for templates written against it.
            custom_fields: sequencerLead(),
          },
        ],
        settings: {
          ignore_global_block_list: false,
          ignore_unsubscribe_list: false,
          ignore_duplicate_leads_in_other_campaign: false,
        },
      });
      expect(vendor.leads).toHaveLength(1);
    });

    it('reports a skipped lead (already in this or another campaign) as a duplicate', async () => {
      const first = vendor.addCampaign('Founders');
      const second = vendor.addCampaign('CTOs');
      await smartlead.addLead(vendor.apiKey, String(first.id), sequencerLead());
      await expect(smartlead.addLead(vendor.apiKey, String(first.id), sequencerLead())).resolves.toEqual({
        added: false,
        duplicate: true,
      });
      await expect(smartlead.addLead(vendor.apiKey, String(second.id), sequencerLead())).resolves.toEqual({
        added: false,
        duplicate: true,
      });
      expect(vendor.leads).toHaveLength(1);
    });

    it('throws a retryable error on a 500', async () => {
      const campaign = vendor.addCampaign('Founders');
      vendor.failNext(500);
      await expect(
        rejection(smartlead.addLead(vendor.apiKey, String(campaign.id), sequencerLead())),
      ).resolves.toMatchObject({
        vendor: 'smartlead',
        status: 500,
        permanent: false,
      });
    });

    it('throws with retryAfterSeconds on a 429 with Retry-After: 2', async () => {
      const campaign = vendor.addCampaign('Founders');
      vendor.failNext(429, { retryAfter: 2 });
      await expect(
        rejection(smartlead.addLead(vendor.apiKey, String(campaign.id), sequencerLead())),
      ).resolves.toMatchObject({
        status: 429,
        permanent: false,
        retryAfterSeconds: 2,
      });
    });

    it('throws a permanent error on a 400 and on an unknown campaign (404)', async () => {
      vendor.failNext(400, { body: { message: 'lead_list must be a non-empty array' } });
      await expect(rejection(smartlead.addLead(vendor.apiKey, '1001', sequencerLead()))).resolves.toMatchObject({
        status: 400,
        permanent: true,
      });
      await expect(rejection(smartlead.addLead(vendor.apiKey, '999', sequencerLead()))).resolves.toMatchObject({
        status: 404,
        permanent: true,
      });
    });
  });

  describe('the key never leaks', () => {
    it('is scrubbed from an error whose vendor body echoes the full request URL', async () => {
      vendor.addCampaign('Founders');
      vendor.failNext(500); // this server's default 5xx body quotes the request URL, ?api_key= included
      const error = await rejection(smartlead.listCampaigns(vendor.apiKey));
      expect(error.message).toContain('Internal error while handling');
      expect(error.message).not.toContain(vendor.apiKey);
      expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(vendor.apiKey);
    });

    it('is absent from 4xx, time-out and network errors', async () => {
      const errors = [];
      vendor.failNext(422, { body: { message: `bad request ?api_key=${vendor.apiKey}` } });
      errors.push(await rejection(smartlead.addLead(vendor.apiKey, '1', sequencerLead())));
      vendor.stallNext(1000);
      errors.push(
        await rejection(new SmartleadSequencer({ baseUrl: vendor.url, timeoutMs: 50 }).listCampaigns(vendor.apiKey)),
      );
      errors.push(
        await rejection(new SmartleadSequencer({ baseUrl: 'http://127.0.0.1:1/api/v1' }).listCampaigns(vendor.apiKey)),
      );
      for (const error of errors) {
        expect(error.message).not.toContain(vendor.apiKey);
        expect(error.stack ?? '').not.toContain(vendor.apiKey);
      }
      expect(errors.map((e) => e.permanent)).toEqual([true, false, false]);
    });
  });
});
