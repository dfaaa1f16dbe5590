import { SalesforceCrm } from '../../providers/crm/salesforce';
import { crmDestination, crmEndpoint, crmSettings } from '../kit/crm-destination';

/** Salesforce: each lead a Lead at the connection's own instance. */
export const salesforce = crmDestination('salesforce', {
  settings: crmSettings,
  async push(access, lead, _input, tools) {
    await new SalesforceCrm(crmEndpoint('salesforce', access.apiBaseUrl, tools)).pushLead(access.accessToken, lead);
  },
});
