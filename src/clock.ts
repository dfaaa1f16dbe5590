/**
 * The service's one clock for business time: UTC days of the daily cap, lookback windows,
 * `<X>d` duplicate windows. Tests move it forward instead of waiting for a day to pass.
 */
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** `YYYY-MM-DD` of the UTC day containing the instant. */
  utcDay(at: Date = this.now()): string {
    return at.toISOString().slice(0, 10);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
