import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startStack, type Stack } from '../setup/stack';
import { compiledProject, killWorker, spawnWorker } from '../setup/worker-process';
import { findFreePort } from '../../src/net/ports';
import {
  FAULT_ENV,
  activateSignal,
  note,
  prepareLeadFlow,
  waitForEveryLeadDelivered,
  type LeadFlow,
} from '../faults/lead-flow';
import { client } from '../leads/fixtures';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver';

/**
 * Tracing on (OTEL_EXPORTER_OTLP_ENDPOINT): the API and the worker run as the service runs them,
 * each in a process of its own from the compiled project, and send their spans to a local
 * OTLP/HTTP receiver. One lead whose webhook fails once, then takes it: its trace holds its
 * production, both route attempts and both HTTP calls to the receiver, linked to the signal's
 * production run; the log lines and the lead workflow's memo carry its trace id.
 */

const PROJECT = path.resolve(__dirname, '../..');
const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

let stack: Stack;
let outDir: string;
let otlp: OtlpReceiver;
const children: ChildProcess[] = [];
const output: string[] = [];

function keepOutput(child: ChildProcess): ChildProcess {
  const keep = (chunk: Buffer) => output.push(chunk.toString());
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  children.push(child);
  return child;
}

const TRACING_ENV = () => ({
  ...FAULT_ENV,
  OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
  // Export within a fifth of a second rather than the SDK's 5 s.
  OTEL_BSP_SCHEDULE_DELAY: '200',
  LOG_LEVEL: 'info',
});

/** `api/main.js` of the compiled project on its own port, against the stack's database and Temporal. */
async function spawnApi(): Promise<string> {
  const port = await findFreePort();
  const api = keepOutput(
    spawn(process.execPath, [path.join(outDir, 'api/main.js')], {
      cwd: PROJECT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        NODE_PATH: path.join(PROJECT, 'node_modules'),
        PORT: String(port),
        DATABASE_URL: stack.config.DATABASE_URL,
        TEMPORAL_ADDRESS: stack.config.TEMPORAL_ADDRESS,
        TEMPORAL_NAMESPACE: stack.config.TEMPORAL_NAMESPACE,
        TEMPORAL_TASK_QUEUE: stack.config.TEMPORAL_TASK_QUEUE,
        ADMIN_TOKEN: stack.config.ADMIN_TOKEN,
        SECRETS_KEY: stack.config.SECRETS_KEY,
        DEMO_DATA: 'false',
        ...TRACING_ENV(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  // Minutes, not seconds: a loaded machine takes long to load the API's modules.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (api.exitCode !== null) throw new Error(`the API exited (${api.exitCode}):\n${output.join('')}`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return url;
    if (Date.now() > deadline) throw new Error(`the API did not start:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  [stack] = await Promise.all([
    startStack({ worker: false, env: FAULT_ENV }),
    compiledProject().then((dir) => void (outDir = dir)),
  ]);
}, 480_000);

afterAll(async () => {
  await Promise.all(children.map(killWorker));
  await stack?.stop();
  await otlp?.close();
});

/** Waits until the receiver holds spans that `ready` accepts, failing with what it has. */
async function spansWhen(what: string, ready: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 60_000;
  while (!ready(otlp.spans)) {
    if (Date.now() > deadline) {
      const names = otlp.spans.map((s) => `${s.service} ${s.traceId.slice(0, 8)} ${s.name}`);
      throw new Error(`no ${what} within 60 s; received:\n${names.join('\n')}\n${output.join('').slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return otlp.spans;
}

test('one lead, one trace: its production, both route attempts and both webhook calls, linked to the signal run', async () => {
  keepOutput(spawnWorker({ outDir, stack, env: TRACING_ENV() }));
  const apiUrl = await spawnApi();
  note('lead-trace', 'worker and API started');

  // The account and data through the in-process stack; the signal's activation through the traced API.
  const prepared = await prepareLeadFlow(stack, 1);
  prepared.receiver.script({ status: 503 });
  const flow: LeadFlow = await activateSignal({
    ...prepared,
    api: client({ ...stack, url: apiUrl }, prepared.account),
  });
  await waitForEveryLeadDelivered(flow, { timeoutMs: 120_000, logAs: 'lead-trace', diagnose: () => output.join('') });
  expect(flow.receiver.requests.map((r) => r.status)).toEqual([503, 200]);
  note('lead-trace', 'lead delivered');

  const [{ id: leadId }] = await stack.db.query(`SELECT id FROM leads WHERE signal_id = $1`, [flow.signalId]);
  const traceId = leadId.replace(/-/g, '');
  const inTrace = (spans: ReceivedSpan[]) => spans.filter((s) => s.traceId === traceId);
  const named = (spans: ReceivedSpan[], name: string) => inTrace(spans).filter((s) => s.name === name);
  // PostgreSQL's spans are client spans too: an HTTP call is the one with an HTTP method.
  const httpCalls = (spans: ReceivedSpan[]) =>
    inTrace(spans).filter(
      (s) => s.kind === SPAN_KIND_CLIENT && (s.attributes['http.method'] ?? s.attributes['http.request.method']),
    );
  const spans = await spansWhen(
    "the lead's production, two attempts and two webhook calls",
    (all) =>
      named(all, 'ProduceLead').length === 1 &&
      named(all, 'RunActivity:attemptDelivery').length === 2 &&
      httpCalls(all).length === 2,
  );
  expect(otlp.refused).toEqual([]);

  // The production span is the root of the lead's trace.
  const [production] = named(spans, 'ProduceLead');
  expect(production).toMatchObject({
    service: 'intent-leads-worker',
    parentSpanId: '',
    attributes: { 'lead.id': leadId, 'signal.id': flow.signalId, 'lead.routes': ['webhook'] },
  });

  // Each route attempt (a local activity of the lead workflow) under it, each with its HTTP call to the receiver.
  const attempts = named(spans, 'RunActivity:attemptDelivery');
  for (const attempt of attempts) {
    expect(attempt.parentSpanId).toBe(production.spanId);
    expect(attempt.attributes.temporalWorkflowId).toBe(`lead:${leadId}`);
  }
  const calls = httpCalls(spans);
  expect(calls.map((c) => attempts.some((a) => a.spanId === c.parentSpanId))).toEqual([true, true]);
  expect(calls.map((c) => String(c.attributes['http.url'] ?? c.attributes['url.full']))).toEqual([
    expect.stringContaining(flow.receiver.url),
    expect.stringContaining(flow.receiver.url),
  ]);
  expect(
    calls.map((c) => c.attributes['http.status_code'] ?? c.attributes['http.response.status_code']).sort(),
  ).toEqual([200, 503]);
  // The receiver got the trace's context with each webhook (W3C traceparent).
  expect(flow.receiver.requests.map((r) => String(r.headers.traceparent).split('-')[1])).toEqual([traceId, traceId]);
  // The attempts' bookkeeping in PostgreSQL is in the trace too.
  expect(inTrace(spans).some((s) => s.attributes['db.system'] === 'postgresql')).toBe(true);

  // The link leads to the signal's run: the production activity of its workflow, in a trace of its own.
  expect(production.links).toHaveLength(1);
  const [link] = production.links;
  expect(link.traceId).not.toBe(traceId);
  const run = await spansWhen('the production activity span', (all) => all.some((s) => s.spanId === link.spanId));
  const produceLeads = run.find((s) => s.spanId === link.spanId)!;
  expect(produceLeads).toMatchObject({
    name: 'RunActivity:produceLeads',
    traceId: link.traceId,
    attributes: { temporalWorkflowId: `signal:${flow.signalId}` },
  });

  // The API: the activation request's span, and the Temporal client's start of the signal workflow under it.
  const api = await spansWhen('the activation request and its workflow start', (all) =>
    all.some((s) => s.service === 'intent-leads-api' && s.name === 'SignalWithStartWorkflow:signalWorkflow'),
  );
  const start = api.find(
    (s) => s.service === 'intent-leads-api' && s.name === 'SignalWithStartWorkflow:signalWorkflow',
  )!;
  const request = api.find((s) => s.spanId === start.parentSpanId);
  expect(request).toMatchObject({ service: 'intent-leads-api', kind: SPAN_KIND_SERVER });
  expect(String(request!.attributes['http.target'] ?? request!.attributes['url.path'])).toBe(
    '/api/v1/signals/job-changes',
  );

  // The lead workflow's memo names the trace (the Web UI shows it).
  const described = await stack.temporal.workflow.getHandle(`lead:${leadId}`).describe();
  expect(described.memo).toEqual({ traceId });

  // The log lines carry the trace: each delivery attempt's in the lead's trace, the production's in the run's.
  const lines = output
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  const attemptLines = lines.filter((l) => l.msg === 'delivery attempt' && l.leadId === leadId);
  expect(attemptLines.map((l) => l.traceId)).toEqual([traceId, traceId]);
  expect(attemptLines.map((l) => attempts.some((a) => a.spanId === l.spanId))).toEqual([true, true]);
  const producedLine = lines.find((l) => l.msg === 'leads produced' && l.signalId === flow.signalId);
  expect(producedLine?.traceId).toBe(link.traceId);
}, 360_000);
