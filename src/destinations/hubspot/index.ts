import { HubSpotCrm } from '../../providers/crm/hubspot';
import { crmDestination, crmEndpoint, crmSettings } from '../kit/crm-destination';

/** HubSpot: each lead as a company (by domain) and a contact (by e-mail), associated. */
export const hubspot = crmDestination('hubspot', {
  settings: crmSettings,
  async push(access, lead, _input, tools) {
    await new HubSpotCrm(crmEndpoint('hubspot', tools.config.HUBSPOT_API_URL, tools)).pushLead(
      access.accessToken,
      lead,
    );
  },
});
