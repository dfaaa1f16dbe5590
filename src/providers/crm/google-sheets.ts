import { bearerCall, unexpectedReply, vendorRequestOk, type VendorCall, type VendorEndpoint } from '../vendor-http';
import type { CrmLead } from './hubspot';

/** The columns of a lead row, in order; the first is the lead id, so a retry can tell a row it already wrote. */
export const SHEET_HEADER = [
  'Lead id',
  'Signal',
  'First name',
  'Last name',
  'Title',
  'E-mail',
  'Phone',
  'LinkedIn',
  'Company',
  'Company domain',
] as const;

const rowOf = (lead: CrmLead): string[] => [
  lead.leadId,
  lead.signalName,
  lead.firstName,
  lead.lastName,
  lead.title,
  lead.email,
  lead.phone,
  lead.linkedinUrl,
  lead.companyName,
  lead.companyDomain,
];

/**
 * Google Sheets API v4: a row per lead appended to the chosen sheet (`RAW`, so nothing a lead
 * carries is read as a formula), the header row written once by the caller's choice. Errors
 * are `{error: {code, message, status}}`; 429 RESOURCE_EXHAUSTED is retried with back-off.
 */
export class GoogleSheets {
  readonly name = 'google-sheets' as const;

  constructor(private readonly endpoint: VendorEndpoint) {}

  async writeHeader(token: string, spreadsheetId: string, sheet: string): Promise<void> {
    const range = `${quoted(sheet)}!A1`;
    await vendorRequestOk(
      this.call(
        token,
        'PUT values/{range}',
        'PUT',
        `/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values/${encodeURIComponent(range)}`,
        {
          query: { valueInputOption: 'RAW' },
          json: { range, majorDimension: 'ROWS', values: [[...SHEET_HEADER]] },
        },
      ),
    );
  }

  /** Whether a row of this lead is already in the sheet (column A holds lead ids). */
  async hasLead(token: string, spreadsheetId: string, sheet: string, leadId: string): Promise<boolean> {
    const range = `${quoted(sheet)}!A:A`;
    const call = this.call(
      token,
      'GET values/{range}',
      'GET',
      `/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values/${encodeURIComponent(range)}`,
    );
    const body = (await vendorRequestOk(call)).body as { values?: string[][] } | undefined;
    if (!body || typeof body !== 'object') throw unexpectedReply(call, 'no JSON body');
    return (body.values ?? []).some((row) => row[0] === leadId);
  }

  async appendLead(token: string, spreadsheetId: string, sheet: string, lead: CrmLead): Promise<void> {
    const range = `${quoted(sheet)}!A1`;
    await vendorRequestOk(
      this.call(
        token,
        'POST values/{range}:append',
        'POST',
        `/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values/${encodeURIComponent(range)}:append`,
        {
          query: { valueInputOption: 'RAW', insertDataOption: 'INSERT_ROWS' },
          json: { range, majorDimension: 'ROWS', values: [rowOf(lead)] },
        },
      ),
    );
  }

  private call(
    token: string,
    operation: string,
    method: VendorCall['method'],
    path: string,
    options: { json?: unknown; query?: Record<string, string> } = {},
  ): VendorCall {
    return bearerCall(this.name, this.endpoint, token, { operation, method, path, ...options });
  }
}

/** A1 notation quotes a sheet name in single quotes (doubling any inside). */
const quoted = (sheet: string) => `'${sheet.replace(/'/g, "''")}'`;
