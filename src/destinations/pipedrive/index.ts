import { PipedriveCrm } from '../../providers/crm/pipedrive';
import { crmDestination, crmEndpoint, crmSettings } from '../kit/crm-destination';

/** Pipedrive: each lead filed as an organization, a person and a lead at the connection's API domain. */
export const pipedrive = crmDestination('pipedrive', {
  settings: crmSettings,
  async push(access, lead, _input, tools) {
    await new PipedriveCrm(crmEndpoint('pipedrive', access.apiBaseUrl, tools)).pushLead(access.accessToken, lead);
  },
});
