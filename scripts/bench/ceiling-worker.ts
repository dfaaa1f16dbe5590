/**
 * The worker of ceiling (c): a process of its own, started with the service worker's node flags,
 * its Temporal runtime set up the same way, and the service's `workerTuning`, running only the
 * minimal workflows of `ceiling-workflows.ts`. Its one local activity counts arrivals; when the
 * bench's expected count is reached it reports the moment over IPC (`{ runId, lastAt }`, lastAt
 * from Date.now()).
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { createLogger } from '../../src/logger';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { workerTuning } from '../../worker/tuning';
import type { CeilingActivities } from './ceiling-workflows';

const expected = new Map<string, number>();
const arrived = new Map<string, number>();

process.on('message', (message: { expect?: { runId: string; count: number } }) => {
  if (message.expect) expected.set(message.expect.runId, message.expect.count);
});

const activities: CeilingActivities = {
  async arrive(runId: string) {
    const count = (arrived.get(runId) ?? 0) + 1;
    arrived.set(runId, count);
    if (count === expected.get(runId)) process.send?.({ runId, lastAt: Date.now() });
  },
};

async function main(): Promise<void> {
  installTemporalRuntime(createLogger(process.env.LOG_LEVEL ?? 'warn', 'ceiling-worker'));
  const address = process.env.TEMPORAL_ADDRESS as string;
  const taskQueue = process.env.CEILING_TASK_QUEUE as string;
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue,
    workflowsPath: require.resolve('./ceiling-workflows'),
    activities,
    ...workerTuning,
  });
  process.send?.({ ready: true, tuning: workerTuning });
  await worker.run();
  await connection.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
