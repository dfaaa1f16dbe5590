/**
 * PATCH semantics for `config`: only sent fields change; a list replaces the stored list (an
 * empty list clears it); `null` removes a field; `sources` merges per event.
 */
export function mergeConfig(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete merged[key];
    } else if (key === 'sources' && typeof value === 'object' && !Array.isArray(value)) {
      merged[key] = { ...((stored[key] as Record<string, unknown>) ?? {}), ...(value as Record<string, unknown>) };
    } else {
      merged[key] = value;
    }
  }
  return merged;
}
