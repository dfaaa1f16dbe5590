/** The lead's stored payload as far as its summary reads it. */
interface SummaryParts {
  first_name?: unknown;
  last_name?: unknown;
  title?: unknown;
  company?: unknown;
  last_signal?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
/** Temporal keeps a static summary to 200 bytes. */
const SUMMARY_BYTES = 200;

/**
 * The line a person reads in the Temporal Web UI's list of lead workflows:
 * "Jane Doe, CTO at Acme: job change → webhook, hubspot".
 */
export function leadSummary(parts: SummaryParts, routes: string[]): string {
  const person = [text(parts.first_name), text(parts.last_name)].filter(Boolean).join(' ');
  const company = text(parts.company) || 'a company';
  const who = person ? `${person}${text(parts.title) ? `, ${text(parts.title)}` : ''} at ${company}` : company;
  const event = text(parts.last_signal).toLowerCase() || 'lead';
  const line = `${who}: ${event} → ${routes.length > 0 ? routes.join(', ') : 'polling only'}`;
  return truncateBytes(line, SUMMARY_BYTES);
}

function truncateBytes(line: string, bytes: number): string {
  if (Buffer.byteLength(line) <= bytes) return line;
  let cut = line;
  while (Buffer.byteLength(cut) > bytes - 3) cut = cut.slice(0, -1);
  return `${cut}...`;
}
