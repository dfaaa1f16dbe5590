/**
 * Schedule check (issue #15): many active signals evaluating on their own interval on one
 * worker. The signals are created, each evaluates once on activation, and then the bench
 * waits until each has also made its first scheduled evaluation. How late those began comes
 * from the worker's own `intent_leads_evaluation_lag_seconds` histogram (its /metrics page);
 * the worker's resident memory is read throughout.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, createAccount, eachWithin, expectStatus } from './http';
import { residentMB, type BenchStack } from './stack';

const CONCURRENCY = 20;
const SAMPLE_EVERY_MS = 5_000;
/** Past one interval after the last signal was created, how long to wait for stragglers. */
const GRACE_MS = 180_000;
/** After that, the wait goes on while evaluations keep coming, but not longer than this without one. */
const STALL_MS = 120_000;

export interface ScheduleResult {
  signals: number;
  intervalMs: number;
  createMs: number;
  /** Scheduled evaluations the histogram counted by the end (at least one per signal is expected). */
  evaluations: number;
  /** Upper bounds from the histogram's buckets, in seconds (Infinity: past the last bucket). */
  lagP50S: number;
  lagP99S: number;
  withinMinuteShare: number;
  workerMB: number;
  peakMB: number;
}

export interface Histogram {
  buckets: { le: number; count: number }[];
  count: number;
}

export function lagHistogram(text: string): Histogram {
  const buckets: { le: number; count: number }[] = [];
  let count = 0;
  for (const line of text.split('\n')) {
    const bucket = /^intent_leads_evaluation_lag_seconds_bucket\{le="([^"]+)"\} (\S+)/.exec(line);
    if (bucket) buckets.push({ le: bucket[1] === '+Inf' ? Infinity : Number(bucket[1]), count: Number(bucket[2]) });
    const total = /^intent_leads_evaluation_lag_seconds_count (\S+)/.exec(line);
    if (total) count = Number(total[1]);
  }
  return { buckets: buckets.sort((a, b) => a.le - b.le), count };
}

/** The smallest bucket bound under which `share` of the observations fall. */
export function quantileBound(histogram: Histogram, share: number): number {
  const needed = histogram.count * share;
  return histogram.buckets.find((bucket) => bucket.count >= needed)?.le ?? Infinity;
}

export async function runSchedule(
  stack: BenchStack,
  options: { signals: number; intervalMs: number; metricsUrl: string },
  log: (line: string) => void,
): Promise<ScheduleResult> {
  const worker = stack.worker!;
  let peakMB = 0;
  let workerMB = 0;
  const sampler = setInterval(() => {
    const reading = residentMB(worker.pid);
    if (reading) [workerMB, peakMB] = [reading.rss, Math.max(peakMB, reading.rss)];
  }, SAMPLE_EVERY_MS);
  try {
    const account = await createAccount(stack.apiUrl, stack.adminToken, 'Bench schedule', 10 * options.signals);
    const started = performance.now();
    await eachWithin(
      Array.from({ length: options.signals }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        await expectStatus(
          'create signal',
          201,
          call(`${stack.apiUrl}/api/v1/signals/job-changes`, {
            token: account.apiKey,
            body: { name: `Bench schedule ${i}`, config: { jobTitles: ['General Counsel'] }, status: 'active' },
          }),
        );
      },
    );
    const createMs = performance.now() - started;
    log(`  ${options.signals} active signals created in ${(createMs / 1000).toFixed(1)} s`);

    // Late evaluations must be counted too: past the interval, wait while they keep coming.
    const deadline = performance.now() + options.intervalMs + GRACE_MS;
    let histogram: Histogram = { buckets: [], count: 0 };
    let lastLog = performance.now();
    let lastProgress = performance.now();
    while (performance.now() < deadline || performance.now() - lastProgress < STALL_MS) {
      const previous = histogram.count;
      histogram = lagHistogram(await (await fetch(options.metricsUrl)).text());
      if (histogram.count > previous) lastProgress = performance.now();
      if (histogram.count >= options.signals) break;
      if (performance.now() - lastLog > 60_000) {
        lastLog = performance.now();
        log(
          `  ${histogram.count} of ${options.signals} scheduled evaluations so far; worker ${workerMB.toFixed(0)} MB`,
        );
      }
      await sleep(SAMPLE_EVERY_MS);
    }
    const withinMinute = histogram.buckets.find((bucket) => bucket.le === 60)?.count ?? 0;
    const result: ScheduleResult = {
      signals: options.signals,
      intervalMs: options.intervalMs,
      createMs,
      evaluations: histogram.count,
      lagP50S: quantileBound(histogram, 0.5),
      lagP99S: quantileBound(histogram, 0.99),
      withinMinuteShare: histogram.count ? withinMinute / histogram.count : 0,
      workerMB,
      peakMB,
    };
    log(
      `  ${result.evaluations} scheduled evaluations: lag p50 ≤ ${result.lagP50S} s, p99 ≤ ${result.lagP99S} s; ` +
        `worker ${workerMB.toFixed(0)} MB (peak ${peakMB.toFixed(0)} MB)`,
    );
    return result;
  } finally {
    clearInterval(sampler);
  }
}
