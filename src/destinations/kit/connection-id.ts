import { z } from 'zod';

/** The `integrationId` a CRM or Sheets destination may name. */
export const connectionId = z.uuid().meta({
  description: 'Which connection of the tool (GET /api/v1/integrations); may be left out when the account has one',
});
