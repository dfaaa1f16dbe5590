import { createHash } from 'node:crypto';

/**
 * When each board is polled: every board once per interval, each at its own phase within it, so
 * that the requests to a platform's host are spread evenly over the interval instead of all
 * going out at one tick. The phase is a hash of the board, so it is the same on every worker and
 * after every restart, and needs no storage.
 */
export function phaseOf(board: string, intervalMs: number): number {
  // The first 32 bits of a SHA-256: uniform even over names that differ in one character.
  const hash = createHash('sha256').update(board).digest().readUInt32BE(0);
  return Math.floor((hash / 0x1_0000_0000) * intervalMs);
}

/** The board's first phase time strictly after `now`: its next poll. */
export function nextPollAt(board: string, intervalMs: number, now: Date): Date {
  const phase = phaseOf(board, intervalMs);
  const since = now.getTime() - phase;
  const last = Math.floor(since / intervalMs) * intervalMs + phase;
  return new Date(last + intervalMs);
}
