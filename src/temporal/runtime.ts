import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../logger';

let installed = false;

/**
 * Routes the SDK's own log lines into our JSON logger, at warning level and above: its
 * per-state-change INFO lines would drown the service's logs. Only the first call in a
 * process counts, because the SDK runtime is a process-wide singleton.
 */
export function installTemporalRuntime(logger: Logger, options: { prometheusBindAddress?: string } = {}): void {
  if (installed) return;
  installed = true;
  const level: LogLevel = logger.levelVal <= 30 ? 'WARN' : 'ERROR';
  try {
    Runtime.install({
      // The SDK's own metrics (task slots, latencies, polls), served by its core for our /metrics to include.
      ...(options.prometheusBindAddress
        ? { telemetryOptions: { metrics: { prometheus: { bindAddress: options.prometheusBindAddress } } } }
        : {}),
      logger: new DefaultLogger(level, ({ level: entryLevel, message, meta }) => {
        const method = entryLevel === 'ERROR' ? 'error' : 'warn';
        logger[method]({ temporal: meta }, message);
      }),
    });
  } catch {
    // Already installed by an earlier module instance in this process (test runners do this).
  }
}
