/** A replay sends the stored lead with `signal.is_replay` added; every other send, the stored bytes as is. */
export function webhookBody(kind: string, payload: string): string {
  return kind === 'replay' ? replayBody(payload) : payload;
}

/** The replay body: the stored lead's text with `signal.is_replay` added; the stored lead is untouched. */
export function replayBody(storedPayload: string): string {
  const lead = JSON.parse(storedPayload) as { signal?: Record<string, unknown> };
  return JSON.stringify({ ...lead, signal: { ...lead.signal, is_replay: true } });
}
