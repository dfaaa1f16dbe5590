import { Connection, Client } from '@temporalio/client';

/**
 * The workflows of a test run that failed because their code did not replay: the test workers
 * fail a workflow on a nondeterminism error (WORKFLOW_FAIL_ON_NONDETERMINISM), and the global
 * teardown asks the run's dev server for them, so one left unnoticed by its test still fails
 * the run (and `npm run test:replay` proves there are none).
 */
export async function nondeterministicWorkflows(address: string): Promise<string[]> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection });
    const found: string[] = [];
    for await (const execution of client.workflow.list({ query: `ExecutionStatus = 'Failed'` })) {
      const handle = client.workflow.getHandle(execution.workflowId, execution.runId);
      const history = await handle.fetchHistory();
      const failure = history.events?.at(-1)?.workflowExecutionFailedEventAttributes?.failure;
      const text = `${failure?.applicationFailureInfo?.type ?? ''} ${failure?.message ?? ''}`;
      if (/nondetermin|TMPRL1100/i.test(text)) found.push(`${execution.workflowId}: ${failure?.message ?? text}`);
    }
    return found;
  } finally {
    await connection.close();
  }
}
