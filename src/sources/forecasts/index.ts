import { defineSource } from '../kit/source-module';
import { backtestForecasts, type BacktestRequest } from './backtest';
import { Forecasts } from './forecasts';
import { forecastsSettings } from './settings';

/** Forecasts made by documented rules from the stored history (docs/sources/forecasts.md). */
export const forecastsSource = defineSource({
  name: 'forecasts',
  settings: forecastsSettings,
  intervalMs: (settings) => settings.FORECASTS_INTERVAL,
  create: (kit, settings) => {
    const forecasts = new Forecasts(kit.db, kit.ingestion, settings);
    const forecastBacktest = { run: (request: BacktestRequest) => backtestForecasts(kit.db, request) };
    return { source: forecasts, parts: { forecasts, forecastBacktest } };
  },
});
