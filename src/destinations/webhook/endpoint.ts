/** `scheme://host:port` of a webhook URL, the unit whose capacity a 429 speaks for; null when unreadable. */
export function endpointOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}
