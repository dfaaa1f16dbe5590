import { createHash } from 'node:crypto';

/**
 * A lead's id is derived from what makes it unique (signal, event, subject), so a retried
 * production step computes the same id, finds the row, and neither inserts nor bills again.
 * Shaped as a version-5-style UUID so it fits uuid columns and clients' expectations.
 */
export function leadIdFor(signalId: string, eventId: string, subjectKey: string): string {
  const hash = createHash('sha1').update(`${signalId}\n${eventId}\n${subjectKey}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
