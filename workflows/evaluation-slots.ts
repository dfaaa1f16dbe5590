/**
 * When a signal evaluates by its schedule. Each signal has slots one interval apart at a phase
 * of its own, taken from its id: signals created together (an import, a bulk create) do not all
 * fall due together, and a backlog after an outage drains back to the same spread instead of
 * staying bunched. docs/decisions/signals.md has the reasoning.
 */

/** The signal's offset within its interval (FNV-1a of its id): stable, and spread evenly over many ids. */
export function evaluationPhaseMs(signalId: string, intervalMs: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < signalId.length; i++) {
    hash ^= signalId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % intervalMs;
}

/**
 * The first of the signal's slots at least half an interval after its last evaluation: one
 * interval apart while it keeps to its slots, never closer than half an interval, never further
 * than one and a half (after an activation, a message or a late start).
 */
export function nextEvaluationSlot(signalId: string, intervalMs: number, lastEvaluatedAtMs: number): number {
  const phase = evaluationPhaseMs(signalId, intervalMs);
  const earliest = lastEvaluatedAtMs + intervalMs / 2;
  return phase + Math.ceil((earliest - phase) / intervalMs) * intervalMs;
}
