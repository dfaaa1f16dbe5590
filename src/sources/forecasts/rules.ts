import { acquisitionTarget } from './acquisition-target';
import { expectedToScale } from './expected-to-scale';
import type { ForecastRule } from './forecast-rule';
import { likelyToRaise } from './likely-to-raise';
import { pathToIpo } from './path-to-ipo';

/** Every forecast rule, one module each (docs/decisions/forecasts.md). */
export const FORECAST_RULES: readonly ForecastRule<any>[] = [
  likelyToRaise,
  pathToIpo,
  acquisitionTarget,
  expectedToScale,
];

export function forecastRule(id: string): ForecastRule<any> | undefined {
  return FORECAST_RULES.find((rule) => rule.id === id);
}

/** A company gets one forecast per rule in this many days. */
export const FORECAST_SPACING_DAYS = 90;
