/**
 * `npm run admin -- <command>`: the operator API (contract section 2) from a terminal. It talks
 * to the running service over HTTP like any operator client, so it needs no database access and
 * works the same against a remote deployment (`API_URL`). Answers are printed as JSON; a
 * failure prints the error envelope on stderr and exits non-zero.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';

class CliFailure extends Error {
  constructor(
    readonly envelope: unknown,
    readonly exitCode = 1,
  ) {
    super('cli failure');
  }
}

const fail = (code: string, message: string, exitCode = 1) => new CliFailure({ error: { code, message } }, exitCode);

function baseUrl(): string {
  return (process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
}

function adminToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  // Where `npm start` keeps it: its data folder, `.data` unless INTENT_LEADS_DATA_DIR moves it.
  const file = resolve(process.cwd(), process.env.INTENT_LEADS_DATA_DIR ?? '.data', 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw fail(
    'NO_ADMIN_TOKEN',
    `Set ADMIN_TOKEN or run from the project directory after a first \`npm start\` (it stores ${file})`,
  );
}

type RequestBody = NonNullable<RequestInit['body']>;

interface Body {
  content: RequestBody;
  type: string;
  length?: number;
}

/** The one HTTP call every command makes. */
async function request(method: string, path: string, body?: unknown | Body): Promise<unknown> {
  const headers: Record<string, string> = { Authorization: `Bearer ${adminToken()}` };
  let content: RequestBody | undefined;
  if (body && typeof body === 'object' && 'content' in body && 'type' in body) {
    const raw = body as Body;
    content = raw.content;
    headers['Content-Type'] = raw.type;
    if (raw.length !== undefined) headers['Content-Length'] = String(raw.length);
  } else if (body !== undefined) {
    content = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  let response: Response;
  try {
    // `duplex` lets a file stream be the body without buffering it.
    response = await fetch(`${baseUrl()}${path}`, { method, headers, body: content, duplex: 'half' } as RequestInit);
  } catch (err) {
    throw fail(
      'UNREACHABLE',
      `No answer from ${baseUrl()} (${(err as Error).cause ?? (err as Error).message}); is the service running?`,
    );
  }
  const text = await response.text();
  let parsed: unknown = text ? undefined : { ok: true };
  try {
    if (text) parsed = JSON.parse(text);
  } catch {
    parsed = { error: { code: 'UNEXPECTED_ANSWER', message: `HTTP ${response.status}: ${text.slice(0, 500)}` } };
  }
  if (!response.ok) throw new CliFailure(parsed);
  return parsed;
}

const id = (value: string | undefined, what: string) => {
  if (!value) throw fail('USAGE', `missing ${what}`, 2);
  return encodeURIComponent(value);
};

function number(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw fail('USAGE', `${what} must be a number, got "${value}"`, 2);
  return n;
}

/** NDJSON unless the file is a .json array; streamed, so a 50 MB file is never held in memory here. */
function recordFile(path: string | undefined): Body {
  if (!path) throw fail('USAGE', 'missing file', 2);
  if (!existsSync(path)) throw fail('USAGE', `no such file: ${path}`, 2);
  return {
    content: Readable.toWeb(createReadStream(path)) as unknown as RequestBody,
    type: extname(path).toLowerCase() === '.json' ? 'application/json' : 'application/x-ndjson',
    length: statSync(path).size,
  };
}

type Flags = { credits?: string; name?: string; permissions?: string; from?: string; to?: string; step?: string };

interface Command {
  usage: string;
  summary: string;
  run(args: string[], flags: Flags): Promise<unknown>;
}

/** A source's command: `<verb>-source <name>`, the operator API's `POST /admin/v1/sources/{name}/<verb>`. */
const sourceAction = (verb: string, summary: string): Command => ({
  usage: `${verb}-source <name>`,
  summary,
  run: ([name]) => request('POST', `/admin/v1/sources/${id(name, 'source name (see list-sources)')}/${verb}`),
});

const COMMANDS: Record<string, Command> = {
  'create-account': {
    usage: 'create-account <name> [--credits N]',
    summary: 'create an account, optionally with starting credits',
    run: ([name], flags) => {
      if (!name) throw fail('USAGE', 'missing account name', 2);
      return request('POST', '/admin/v1/accounts', { name, credits: number(flags.credits, '--credits') });
    },
  },
  'add-credits': {
    usage: 'add-credits <accountId> <amount>',
    summary: 'add credits (multiples of 0.5) to an account',
    run: ([accountId, amount]) => {
      if (!amount) throw fail('USAGE', 'missing amount', 2);
      return request('POST', `/admin/v1/accounts/${id(accountId, 'accountId')}/credits`, {
        amount: number(amount, 'amount'),
      });
    },
  },
  'create-key': {
    usage: 'create-key <accountId> [--name N] [--permissions read,write,enrich]',
    summary: 'create an API key; its key and webhook secret are shown only now',
    run: ([accountId], flags) =>
      request('POST', `/admin/v1/accounts/${id(accountId, 'accountId')}/api-keys`, {
        name: flags.name,
        permissions: flags.permissions
          ?.split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      }),
  },
  'revoke-key': {
    usage: 'revoke-key <keyId>',
    summary: 'revoke an API key',
    run: ([keyId]) => request('DELETE', `/admin/v1/api-keys/${id(keyId, 'keyId')}`),
  },
  'rotate-webhook-secret': {
    usage: 'rotate-webhook-secret <keyId>',
    summary: "replace a key's webhook signing secret",
    run: ([keyId]) => request('POST', `/admin/v1/api-keys/${id(keyId, 'keyId')}/webhook-secret`),
  },
  'connect-crm': {
    usage: 'connect-crm <accountId> <provider> <accessToken>',
    summary: 'record a CRM connection (stands in for the OAuth flow)',
    run: ([accountId, provider, accessToken]) =>
      request('POST', `/admin/v1/accounts/${id(accountId, 'accountId')}/crm-connections`, { provider, accessToken }),
  },
  ingest: {
    usage: 'ingest <file.ndjson|file.json>',
    summary: 'load company, person and event records; prints counts and rejected lines',
    run: ([file]) => request('POST', '/admin/v1/ingest', recordFile(file)),
  },
  evaluate: {
    usage: 'evaluate <signalId>',
    summary: 'make a signal evaluate now instead of at its next interval',
    run: ([signalId]) => request('POST', `/admin/v1/signals/${id(signalId, 'signalId')}/evaluate`),
  },
  'reset-password': {
    usage: 'reset-password [email]',
    summary: "give a dashboard member a new password, shown once (default: the demo person's)",
    // The demo person's address (src/bootstrap.ts): the CLI imports nothing outside src/cli.
    run: ([email]) => request('POST', '/admin/v1/members/password-reset', { email: email ?? 'demo@example.com' }),
  },
  'list-sources': {
    usage: 'list-sources',
    summary: 'the intent sources: enabled, why quiet, last and next run, records, errors',
    run: () => request('GET', '/admin/v1/sources'),
  },
  'run-source': sourceAction('run', 'run a source now (refused while it is disabled or off)'),
  'enable-source': sourceAction('enable', 'enable a source and resume its schedule'),
  'disable-source': sourceAction('disable', 'disable a source and pause its schedule'),
  'backfill-source': sourceAction('backfill', 'forget the cursor of an unfinished run and run from the first item'),
  'backtest-forecasts': {
    usage: 'backtest-forecasts --from YYYY-MM-DD --to YYYY-MM-DD [--step day|week]',
    summary: 'replay the stored history: per forecast rule, forecasts, come true, share, median lead time',
    run: (_args, flags) => {
      if (!flags.from || !flags.to) throw fail('USAGE', 'missing --from or --to (days "YYYY-MM-DD")', 2);
      const query = new URLSearchParams({
        from: flags.from,
        to: flags.to,
        ...(flags.step ? { step: flags.step } : {}),
      });
      return request('GET', `/admin/v1/forecasts/backtest?${query.toString()}`);
    },
  },
};

function help(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  return [
    'usage: npm run admin -- <command> [arguments]',
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    `  ${'help'.padEnd(width)}  this list`,
    '',
    `Talks to ${baseUrl()} (API_URL, else PORT) with ADMIN_TOKEN, else the token in .data/admin-token.`,
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(help());
    return 0;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw fail('USAGE', `unknown command "${name}"; run "npm run admin -- help"`, 2);
    let parsed: { values: Flags; positionals: string[] };
    try {
      parsed = parseArgs({
        args: rest,
        options: {
          credits: { type: 'string' },
          name: { type: 'string' },
          permissions: { type: 'string' },
          from: { type: 'string' },
          to: { type: 'string' },
          step: { type: 'string' },
        },
        allowPositionals: true,
        strict: true,
      });
    } catch (err) {
      throw fail('USAGE', `${(err as Error).message}; usage: ${command.usage}`, 2);
    }
    console.log(JSON.stringify(await command.run(parsed.positionals, parsed.values), null, 2));
    return 0;
  } catch (err) {
    if (!(err instanceof CliFailure)) throw err;
    console.error(JSON.stringify(err.envelope, null, 2));
    return err.exitCode;
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err) => {
    console.error(
      JSON.stringify({ error: { code: 'CLI_ERROR', message: String((err as Error).stack ?? err) } }, null, 2),
    );
    process.exitCode = 1;
  },
);
