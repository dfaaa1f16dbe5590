import { z } from 'zod';
import { temporalTargetFrom, type TemporalTarget } from './temporal/target';
import { bool, duration, int, optionalText, otlpEndpoint } from './settings-fields';
import { sourceKitSettings } from './sources/kit/settings';
import { sourceSettings } from './sources/registry';

function schemaFor(env: NodeJS.ProcessEnv) {
  const production = env.NODE_ENV === 'production';
  return z.object({
    NODE_ENV: z.string().default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /**
     * The address people, vendors and assistants reach the service at (OAuth issuer and redirect
     * URLs, the tool server's resource, invite links). Required in production, where a request's
     * Host must not choose them; elsewhere, unset, each request's own address is used.
     */
    PUBLIC_URL: production
      ? z
          .url({
            protocol: /^https?$/,
            error: 'required when NODE_ENV=production: an http(s) URL such as https://leads.example.com',
          })
          .transform((v) => v.replace(/\/+$/, ''))
      : optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()).transform((v) => v?.replace(/\/+$/, '')),
    /**
     * How many reverse proxies (load balancers) stand between clients and this process. 0: none,
     * the socket's address is the client and X-Forwarded-* headers are ignored; N: the N-th entry
     * from the right of X-Forwarded-For is the client, and X-Forwarded-Proto/-Host are believed.
     */
    TRUST_PROXY_HOPS: optionalText
      .refine((v) => v === undefined || (/^\d{1,2}$/.test(v) && Number(v) <= 10), 'a number of proxies, 0 to 10')
      .transform((v) => Number(v ?? 0)),
    DATABASE_URL: z.string().min(1),
    TEMPORAL_TASK_QUEUE: z.string().default('signals'),
    /**
     * Workflow executions a worker keeps in memory between their tasks; unset: worker/tuning.ts.
     * 0 turns the cache off, so every workflow task replays the whole history (`npm run test:replay`).
     */
    WORKER_MAX_CACHED_WORKFLOWS: optionalText
      .refine((v) => v === undefined || /^\d{1,6}$/.test(v), 'a whole number, 0 to turn the cache off')
      .transform((v) => (v === undefined ? undefined : Number(v))),
    /** A nondeterminism error fails the workflow at once instead of retrying its task (the tests: loud, not stuck). */
    WORKFLOW_FAIL_ON_NONDETERMINISM: bool(false),
    /**
     * How long an API answer waits for Temporal to take a signal's change (start, pause, resume,
     * config, delete); past it the answer says so in a warning, and the change reaches the workflow
     * when Temporal answers or by the signal reconciliation.
     */
    TEMPORAL_ANSWER_WAIT_MS: int(1_000),
    /**
     * The Worker Deployment this process's workers are versions of (Worker Versioning,
     * docs/decisions/deploys.md); unset, the workers are unversioned. No dots: the version's
     * name is `<deployment>.<build id>`.
     */
    TEMPORAL_DEPLOYMENT_NAME: optionalText.pipe(
      z
        .string()
        .regex(
          /^[A-Za-z0-9_-]{1,200}$/,
          'letters, digits, - and _ only (no . or :, which the server puts between a deployment and a build id)',
        )
        .optional(),
    ),
    /** This code's build id; unset, the build's (`dist/build-info.json`: package version and commit). */
    BUILD_ID: optionalText.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9_.+-]{1,200}$/, 'letters, digits, and . + - _ only')
        .optional(),
    ),
    /**
     * When a starting worker makes its version the deployment's current one: `if-none` (only when
     * the deployment has none yet: a first start; later builds are made current by the operator),
     * `always` (the newest start wins: `npm start` on a development machine), `never`.
     */
    TEMPORAL_DEPLOYMENT_PROMOTE: z.enum(['if-none', 'always', 'never']).default('if-none'),
    ADMIN_TOKEN: z.string().min(16),
    SECRETS_KEY: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'SECRETS_KEY must be 32 bytes, base64'),
    /** The timed evaluation: the safety net for what no written row announces (docs/decisions/wake-on-arrival.md). */
    SIGNAL_EVALUATION_INTERVAL: duration('1d'),
    /**
     * Written rows wake the signals they may concern (docs/decisions/wake-on-arrival.md); `false`:
     * only the timer (tests that step a signal's evaluations themselves).
     */
    SIGNAL_WAKE_ON_ARRIVAL: bool(true),
    /** Rows written within this window wake their signals together: a burst wakes each signal once. */
    SIGNAL_WAKE_WINDOW: duration('1s'),
    /** Wake messages in flight at once, per process. */
    SIGNAL_WAKE_SENDS: int(20),
    /** A signal woken is not woken again sooner: a busy stream costs each signal one evaluation per gap. */
    SIGNAL_WAKE_GAP: duration('30s'),
    /** How often every signal is checked against its workflow; the outbox is mended every 30 s (docs/decisions/signals.md). */
    SIGNAL_SWEEP_INTERVAL: duration('1d'),
    // `full` reads each signal's whole window every evaluation, as before incremental evaluation.
    EVALUATION_READ: z.enum(['incremental', 'full']).default('incremental'),
    /** How long an access token an assistant got by OAuth for /mcp lasts; it refreshes after. */
    ASSISTANT_TOKEN_TTL: duration('1h'),
    /** Dynamic client registrations (assistants signing up at /oauth/reg) allowed per client address and hour. */
    ASSISTANT_REGISTRATIONS_PER_HOUR: int(30),
    WEBHOOK_TIMEOUT_MS: int(10_000),
    WEBHOOK_RETRY_INITIAL_MS: int(5_000),
    WEBHOOK_RETRY_MAX_INTERVAL_MS: int(3_600_000),
    WEBHOOK_RETRY_WINDOW_MS: int(86_400_000),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(!production),
    DEMO_DATA: bool(false),
    /** How often the demo generator adds fresh events (`DEMO_DATA` only). */
    DEMO_FEED_INTERVAL: duration('20s'),
    ENRICHMENT_LIVE_LATENCY_MS: z.coerce.number().int().min(0).default(3000),
    ENRICHMENT_CONCURRENCY_PER_KEY: int(10),
    /** Cost previews one API key (or dashboard member) may have running at once; over it 429 at once. */
    PREVIEW_CONCURRENCY_PER_KEY: int(2),
    /** The longest one statement of a cost preview may run before it is stopped (PREVIEW_TIMEOUT). */
    PREVIEW_STATEMENT_TIMEOUT: duration('10s'),
    /** Connections of the pool previews and funnels read on, apart from the API's own (10). */
    ANALYSIS_POOL_SIZE: int(3),
    /** Most entries one account's suppression list may hold; an addition past it adds nothing (409). */
    SUPPRESSIONS_PER_ACCOUNT: int(100_000),
    RATE_LIMIT_PER_SECOND: int(100),
    RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
    LEMLIST_API_URL: z.string().url().default('https://api.lemlist.com/api'),
    INSTANTLY_API_URL: z.string().url().default('https://api.instantly.ai/api/v2'),
    SMARTLEAD_API_URL: z.string().url().default('https://server.smartlead.ai/api/v1'),
    HUBSPOT_API_URL: z.string().url().default('https://api.hubapi.com'),
    // CRMs and Google Sheets connect by OAuth: a tool without its client id shows as not configured.
    HUBSPOT_CLIENT_ID: optionalText,
    HUBSPOT_CLIENT_SECRET: optionalText,
    HUBSPOT_AUTHORIZE_URL: z.string().url().default('https://app.hubspot.com/oauth/authorize'),
    HUBSPOT_TOKEN_URL: z.string().url().default('https://api.hubapi.com/oauth/2026-03/token'),
    SALESFORCE_CLIENT_ID: optionalText,
    SALESFORCE_CLIENT_SECRET: optionalText,
    /** `https://login.salesforce.com`, `https://test.salesforce.com` (sandboxes) or a My Domain. */
    SALESFORCE_LOGIN_URL: z
      .string()
      .url()
      .default('https://login.salesforce.com')
      .transform((v) => v.replace(/\/+$/, '')),
    PIPEDRIVE_CLIENT_ID: optionalText,
    PIPEDRIVE_CLIENT_SECRET: optionalText,
    PIPEDRIVE_OAUTH_URL: z
      .string()
      .url()
      .default('https://oauth.pipedrive.com')
      .transform((v) => v.replace(/\/+$/, '')),
    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    GOOGLE_AUTHORIZE_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
    GOOGLE_REVOKE_URL: z.string().url().default('https://oauth2.googleapis.com/revoke'),
    GOOGLE_SHEETS_API_URL: z
      .string()
      .url()
      .default('https://sheets.googleapis.com')
      .transform((v) => v.replace(/\/+$/, '')),
    /**
     * Where Slack destinations' messages go: saved webhook URLs are always hooks.slack.com ones,
     * and their `/services/...` path is posted here (a local server in tests and staging).
     */
    SLACK_WEBHOOKS_URL: z
      .string()
      .url()
      .default('https://hooks.slack.com')
      .transform((v) => v.replace(/\/+$/, '')),
    /** Credits a new account gets when a person signs up in the dashboard. */
    STARTER_CREDITS: z.coerce
      .number()
      .min(0)
      .max(1_000_000)
      .default(production ? 0 : 100),
    /**
     * `open`: anyone may create an account at /sign-up (confirmed by a mailed link); `closed`:
     * people join by invite only, and /sign-up says so.
     */
    SIGN_UP: z.enum(['open', 'closed']).default('open'),
    /**
     * Where mail goes out (sign-up links): `smtp://user:pass@host:587` (STARTTLS when offered) or
     * `smtps://…:465`. Unset outside production, each mail is written to the log instead;
     * required in production while SIGN_UP is open.
     */
    SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, error: 'an smtp:// or smtps:// URL' }).optional()),
    /**
     * The From of every mail: `ops@leads.example.com` or `Intent leads <ops@leads.example.com>`;
     * required in production while SIGN_UP is open.
     */
    MAIL_FROM: optionalText.pipe(
      z
        .string()
        .regex(
          /^(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
          'an address, or a name and <address>, such as Intent leads <ops@leads.example.com>',
        )
        .optional(),
    ),
    // The sources' own settings are in their folders (src/sources/<name>/settings.ts, src/sources/kit/settings.ts).
    ...sourceKitSettings(production),
    ...sourceSettings(production),
    /** The process's `GET /metrics` port (0: any free one); unset, no metrics listener. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().default('127.0.0.1'),
    OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
    LOG_LEVEL: z.string().default('info'),
  });
}

export type Config = z.output<ReturnType<typeof schemaFor>> & {
  /** Temporal's connection, as `@temporalio/envconfig` reads it (src/temporal/target.ts). */
  TEMPORAL: TemporalTarget;
  /** The same target's address and namespace, for messages and child processes. */
  TEMPORAL_ADDRESS: string;
  TEMPORAL_NAMESPACE: string;
};

/** Reads the environment once at start-up and refuses to start on a bad value, naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schemaFor(env).safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  const mailProblems = productionMailProblems(parsed.data);
  if (mailProblems.length) throw new Error(`invalid configuration: ${mailProblems.join('; ')}`);
  let temporal: TemporalTarget;
  try {
    temporal = temporalTargetFrom(env);
  } catch (err) {
    throw new Error(`invalid configuration: Temporal connection settings: ${(err as Error).message}`);
  }
  return {
    ...parsed.data,
    TEMPORAL: temporal,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace,
  };
}

/** Open sign-up mails its confirmation link, and in production a log is no mailbox (docs/decisions/dashboard.md). */
function productionMailProblems(config: Pick<Config, 'NODE_ENV' | 'SIGN_UP' | 'SMTP_URL' | 'MAIL_FROM'>): string[] {
  if (config.NODE_ENV !== 'production' || config.SIGN_UP !== 'open') return [];
  const problems: string[] = [];
  if (!config.SMTP_URL) {
    problems.push(
      'SMTP_URL: required when NODE_ENV=production and SIGN_UP=open (sign-up mails a link); or set SIGN_UP=closed',
    );
  }
  if (!config.MAIL_FROM) problems.push('MAIL_FROM: required when NODE_ENV=production and SIGN_UP=open');
  return problems;
}
