/**
 * Node flags the worker process runs with, wherever it is launched (`npm start`, the bench, the
 * container's command in docker-compose.yml, which repeats them).
 *
 * `--max-semi-space-size=4` (MB): V8 sizes each isolate's young generation for throughput, up to
 * 16 MB per semi-space, and the worker has three isolates (the main thread and each Temporal
 * worker's workflow thread). After a burst of activations it kept those pages: 1,000 idle
 * signals held the worker at 511–542 MB. With 4 MB the same worker settles at ~390 MB for a few
 * more young-generation collections, which the pipeline's throughput did not show
 * (docs/performance.md, scale check).
 *
 * `--max-old-space-size=512` (MB, per isolate): without it V8 sizes the old generation from the
 * machine's memory (~4 GB here) and lets garbage pile up between full collections. 10,000
 * signals created at once, each evaluating, took the worker to 785 MB; with the limit, 516 MB.
 * Each isolate's live data is well under it (the main thread's ~180 MB, the workflows' less).
 */
export const WORKER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--max-old-space-size=512'];
