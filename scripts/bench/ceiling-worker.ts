/**
 * The worker of ceiling (b): a process of its own with the SDK's default worker settings, as the
 * service's worker has, running only the minimal workflows of `ceiling-workflows.ts`. Its one
 * activity counts arrivals; when the bench's expected count is reached it reports the moment
 * over IPC (`{ runId, lastAt }`, lastAt from Date.now()).
 */
import { NativeConnection, Worker } from '@temporalio/worker';
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
  const address = process.env.TEMPORAL_ADDRESS as string;
  const taskQueue = process.env.CEILING_TASK_QUEUE as string;
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue,
    workflowsPath: require.resolve('./ceiling-workflows'),
    activities,
  });
  process.send?.({ ready: true });
  await worker.run();
  await connection.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
