import { z } from 'zod';
import { GoogleSheets } from '../../providers/crm/google-sheets';
import { crmDestination, crmEndpoint } from '../kit/crm-destination';
import { connectionId } from '../kit/connection-id';

/** Google Sheets also needs the spreadsheet (the id in its URL) and the sheet (tab) a row per lead goes to. */
const sheetsSettings = z.strictObject({
  enabled: z.boolean(),
  integrationId: connectionId.optional(),
  spreadsheetId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{10,200}$/, 'the id in the spreadsheet URL, between /d/ and /edit')
    .meta({ description: 'The id in the spreadsheet URL: docs.google.com/spreadsheets/d/{spreadsheetId}/edit' }),
  sheetName: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^!'[\]*?:/\\]+$/, "a sheet name without ! ' [ ] * ? : / or \\")
    .default('Leads')
    .meta({ description: 'The sheet (tab) to append to; its first row gets our header once' }),
});

/** `{spreadsheetId}!{sheet}`: spreadsheet ids never hold a `!`. */
function splitSheetTarget(target: string): [string, string] {
  const at = target.indexOf('!');
  return [target.slice(0, at), target.slice(at + 1)];
}

/** Google Sheets: a row per lead appended to a sheet, under a header written once. */
export const googleSheets = crmDestination('google-sheets', {
  settings: sheetsSettings,
  targetOf: (stored) => `${String(stored.spreadsheetId)}!${String(stored.sheetName)}`,
  formFields: [
    {
      id: 'sheets-spreadsheet',
      label: 'Spreadsheet id',
      hint: () => '(in its URL: /spreadsheets/d/{id}/edit)',
      input: 'text',
      value: (stored) => (typeof stored.spreadsheetId === 'string' ? stored.spreadsheetId : ''),
    },
    {
      id: 'sheets-sheet',
      label: 'Sheet',
      input: 'text',
      value: (stored) => (typeof stored.sheetName === 'string' ? stored.sheetName : 'Leads'),
    },
  ],
  settingsOfFields: (form) => ({
    spreadsheetId: (form.get('sheets-spreadsheet') ?? '').trim(),
    sheetName: (form.get('sheets-sheet') ?? '').trim() || 'Leads',
  }),
  async push(access, lead, input, tools) {
    const sheets = new GoogleSheets(crmEndpoint('google-sheets', tools.config.GOOGLE_SHEETS_API_URL, tools));
    const [spreadsheetId, sheet] = splitSheetTarget(input.target);
    if (!(await tools.sheetHeaderWritten(access.connectionId, spreadsheetId, sheet))) {
      await sheets.writeHeader(access.accessToken, spreadsheetId, sheet);
      await tools.recordSheetHeader(access.connectionId, spreadsheetId, sheet);
    }
    // An append is not idempotent: after an attempt that may have landed, look for the lead's row first.
    if (input.attempt > 1 && (await sheets.hasLead(access.accessToken, spreadsheetId, sheet, lead.leadId))) return;
    await sheets.appendLead(access.accessToken, spreadsheetId, sheet, lead);
  },
});
