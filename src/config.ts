import { z } from 'zod';
import { temporalTargetFrom, type TemporalTarget } from './temporal/target';

/** `1s`, `30s`, `15m`, `1h` (and plain milliseconds) → milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms'] as number;
  return Number(match[1]) * unit;
}

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));

/** Unset or empty (as compose files pass an unset variable): undefined. */
const optionalText = z
  .string()
  .optional()
  .transform((v) => v || undefined);

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);

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
    ADMIN_TOKEN: z.string().min(16),
    SECRETS_KEY: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'SECRETS_KEY must be 32 bytes, base64'),
    SIGNAL_EVALUATION_INTERVAL: z.string().default('15m').transform(parseDuration),
    // `full` reads each signal's whole window every evaluation, as before incremental evaluation.
    EVALUATION_READ: z.enum(['incremental', 'full']).default('incremental'),
    /** How long an access token an assistant got by OAuth for /mcp lasts; it refreshes after. */
    ASSISTANT_TOKEN_TTL: z.string().default('1h').transform(parseDuration),
    /** Dynamic client registrations (assistants signing up at /oauth/reg) allowed per client address and hour. */
    ASSISTANT_REGISTRATIONS_PER_HOUR: int(30),
    WEBHOOK_TIMEOUT_MS: int(10_000),
    WEBHOOK_RETRY_INITIAL_MS: int(5_000),
    WEBHOOK_RETRY_MAX_INTERVAL_MS: int(3_600_000),
    WEBHOOK_RETRY_WINDOW_MS: int(86_400_000),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(!production),
    DEMO_DATA: bool(false),
    /** How often the demo generator adds fresh events (`DEMO_DATA` only). */
    DEMO_FEED_INTERVAL: z.string().default('20s').transform(parseDuration),
    ENRICHMENT_LIVE_LATENCY_MS: z.coerce.number().int().min(0).default(3000),
    ENRICHMENT_CONCURRENCY_PER_KEY: int(10),
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
     * The contact address every source request names in its User-Agent (fair use: a vendor that
     * minds our traffic can write). Required in production.
     */
    SOURCES_CONTACT_EMAIL: production
      ? z.email({ error: 'required when NODE_ENV=production: an email address such as ops@leads.example.com' })
      : optionalText.pipe(z.email().optional()).transform((v) => v ?? 'sources@localhost'),
    /**
     * Hosts a source reaches, sent elsewhere (tests, staging): `boards-api.greenhouse.io=http://127.0.0.1:4010,...`.
     * Path and query are kept; politeness and parsing stay those of the real host.
     */
    SOURCES_HOST_MAP: optionalText.transform((v, ctx) => {
      const map = new Map<string, string>();
      for (const pair of (v ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const [host, target] = pair.split(/=(.*)/s);
        if (!host || !target || !/^https?:\/\/[^/]+$/.test(target.replace(/\/+$/, ''))) {
          ctx.addIssue({ code: 'custom', message: `"${pair}" must be host=http(s)://address[:port]` });
          return z.NEVER;
        }
        map.set(host.toLowerCase(), target.replace(/\/+$/, ''));
      }
      return map;
    }),
    /** The least time between two requests to one host, across every worker. */
    SOURCES_HOST_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
    SOURCES_TIMEOUT_MS: int(15_000),
    /** Larger answers are cut off and counted as the source's error (a whole Ashby board is a few MB). */
    SOURCES_MAX_RESPONSE_BYTES: int(20_000_000),
    /** How often the job-boards source polls each known board (each at its own phase within it). */
    JOB_BOARDS_INTERVAL: z.string().default('6h').transform(parseDuration),
    /** How often the job-boards schedule runs to poll the boards whose phase has come. */
    JOB_BOARDS_TICK: z.string().default('5m').transform(parseDuration),
    /** How often the news source reads every company's feeds and searches GDELT for every watched one. */
    NEWS_INTERVAL: z.string().default('6h').transform(parseDuration),
    /** The least time between two GDELT requests, across every worker: GDELT asks for 5 s; tests shorten it. */
    NEWS_GDELT_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(production ? 5000 : 0)
      .default(5000),
    /** How often the sec-form-d source reads EDGAR's current Form D filings; a backfill reads the daily indexes of the last SEC_FORM_D_BACKFILL_DAYS days. */
    SEC_FORM_D_INTERVAL: z.string().default('10m').transform(parseDuration),
    SEC_FORM_D_BACKFILL_DAYS: z.coerce.number().int().min(1).max(90).default(7),
    /** Pages of 100 filings a run reads of the current feed at most (it stops at the first filing it knows). */
    SEC_FORM_D_FEED_PAGES: z.coerce.number().int().min(1).max(20).default(5),
    /** How often the ted source reads TED's contract award notices (TED publishes once per working day). */
    TED_INTERVAL: z.string().default('6h').transform(parseDuration),
    /** The publication days each ted run makes sure are read: today and the days before it. */
    TED_RECENT_DAYS: z.coerce.number().int().min(1).max(31).default(3),
    /** The days before today a ted backfill reads again. */
    TED_BACKFILL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /** Notices per page of a TED search (the API allows 250). */
    TED_PAGE_SIZE: z.coerce.number().int().min(1).max(250).default(100),
    /** The people-data-labs source's API key (the customer's or the operator's); unset, the source is off. */
    PEOPLE_DATA_LABS_API_KEY: optionalText,
    /** PDL's current monthly release ("28.2"), compared with the one before it; set it when PDL publishes one. */
    PEOPLE_DATA_LABS_VERSION: optionalText.pipe(
      z
        .string()
        .regex(/^\d+\.[0-2]$/, 'must be a PDL monthly release such as "28.2"')
        .optional(),
    ),
    /** How often the people-data-labs source looks for a release it has not compared yet. */
    PEOPLE_DATA_LABS_INTERVAL: z.string().default('1d').transform(parseDuration),
    /** What one PDL credit costs under the key's plan, in USD, for the cost in the source's status (0: credits only). */
    PEOPLE_DATA_LABS_CREDIT_PRICE_USD: z.coerce.number().min(0).max(1000).default(0),
    /** The companies-house source's REST key (HTTP Basic user name); without it the source is off. */
    COMPANIES_HOUSE_API_KEY: optionalText,
    /** The key of Companies House's streaming API (a separate key); without it the officers stream is not read. */
    COMPANIES_HOUSE_STREAM_KEY: optionalText,
    /** How often the companies-house source runs: a bounded read of the officers stream, then matching and filings. */
    COMPANIES_HOUSE_INTERVAL: z.string().default('5m').transform(parseDuration),
    /** How long one run reads the officers stream at most (the activity allows 5 minutes). */
    COMPANIES_HOUSE_STREAM_READ_SECONDS: z.coerce.number().int().min(1).max(240).default(120),
    /** Stream events one run reads at most. */
    COMPANIES_HOUSE_STREAM_MAX_EVENTS: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
    /** How often a linked company's capital filings are read again. */
    COMPANIES_HOUSE_FILINGS_INTERVAL: z.string().default('24h').transform(parseDuration),
    /** The fixed rate turning a GBP statement of capital into `funding_amount_usd`; 0 leaves GBP amounts empty. */
    COMPANIES_HOUSE_GBP_USD_RATE: z.coerce.number().min(0).max(100).default(1.27),
    /** How often the company-profiles source looks for sites due (new companies, weekly refreshes). */
    COMPANY_PROFILES_INTERVAL: z.string().default('15m').transform(parseDuration),
    /** The process's `GET /metrics` port (0: any free one); unset, no metrics listener. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: z.string().default(production ? 'info' : 'info'),
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
