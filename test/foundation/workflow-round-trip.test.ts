import { randomUUID } from 'node:crypto';
import { probeWorkflow, proceedSignal } from '../../workflows';
import { startStack, type Stack } from '../setup/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

async function waitFor(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('worker, Temporal and PostgreSQL wiring', () => {
  test('a workflow runs an activity that writes PostgreSQL', async () => {
    const probeId = randomUUID();
    const handle = await stack.temporal.workflow.start(probeWorkflow, {
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      workflowId: `probe:${probeId}`,
      args: [probeId],
    });
    await waitFor(async () => (await stack.services.workflowProbes.steps(probeId)) === 1);
    await handle.signal(proceedSignal);
    expect(await handle.result()).toBe(2);
    expect(await stack.services.workflowProbes.steps(probeId)).toBe(2);
  });

  test('the worker restarting in the middle of a workflow does not lose it', async () => {
    const probeId = randomUUID();
    const handle = await stack.temporal.workflow.start(probeWorkflow, {
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      workflowId: `probe:${probeId}`,
      args: [probeId],
    });
    await waitFor(async () => (await stack.services.workflowProbes.steps(probeId)) === 1);
    await stack.stopWorker();

    // With no worker, the signal is recorded in history but nothing runs.
    await handle.signal(proceedSignal);
    await new Promise((r) => setTimeout(r, 500));
    expect(await stack.services.workflowProbes.steps(probeId)).toBe(1);

    await stack.startWorker();
    expect(await handle.result()).toBe(2);
    expect(await stack.services.workflowProbes.steps(probeId)).toBe(2);
  });
});
