import type http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';

/**
 * Pieces of the hostile-input suites: a raw HTTP client (exact bytes, duplicated and oversized
 * headers, which fetch refuses to send), the public operations read from the OpenAPI
 * document, arbitraries for hostile bodies, queries and headers, the envelope check and a
 * fingerprint of the database to prove a refused request changed nothing.
 */

// ---------------------------------------------------------------- raw HTTP

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent, percent-encoding and all. */
  target: string;
  /** Arrays send the header once per value. */
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

/**
 * One request over a plain TCP socket, written byte for byte: Node's HTTP client refuses
 * control characters in headers, and a hostile client does not ask for permission. The
 * request says `Connection: close`, so the answer ends when the server closes.
 */
export function send(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const base = new URL(baseUrl);
  const lines = [`${request.method} ${request.target} HTTP/1.1`, `Host: ${base.host}`, 'Connection: close'];
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  if (request.body) lines.push(`Content-Length: ${request.body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: base.hostname, port: Number(base.port) });
    socket.setTimeout(30_000, () =>
      socket.destroy(new Error(`no answer in 30 s to ${request.method} ${request.target.slice(0, 100)}`)),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may answer and close while a refused large body is still being written: a
    // reset then says nothing about the answer, which is already in.
    socket.on('error', (err) => (chunks.length > 0 ? finish() : reject(err)));
    socket.on('end', () => finish());
    socket.write(request.body ? Buffer.concat([head, request.body]) : head);
    let done = false;
    function finish(): void {
      if (done) return;
      done = true;
      socket.destroy();
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    }
  });
}

function parseAnswer(raw: Buffer): RawAnswer {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`not an HTTP answer: ${JSON.stringify(raw.subarray(0, 200).toString('latin1'))}`);
  const [statusLine, ...headerLines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: http.IncomingHttpHeaders = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(split + 4);
  if (String(headers['transfer-encoding'] ?? '').includes('chunked')) body = unchunk(body);
  return { status, headers, text: body.toString('utf8') };
}

function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------- the public operations

export interface Operation {
  method: string;
  /** OpenAPI form, `{name}` for parameters. */
  path: string;
  operationId: string;
  public: boolean;
  pathParams: string[];
  queryParams: string[];
  /** Top-level fields of the JSON body, when the operation takes one. */
  bodyFields: string[] | null;
}

type JsonObject = Record<string, any>;

function resolveRef(document: JsonObject, schema: JsonObject | undefined): JsonObject | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 10; hops++) {
    const parts = String(current.$ref).replace(/^#\//, '').split('/');
    current = parts.reduce<any>((node, part) => node?.[part], document);
  }
  return current;
}

function propertiesOf(document: JsonObject, schema: JsonObject | undefined): string[] {
  const resolved = resolveRef(document, schema);
  if (!resolved) return [];
  const own = Object.keys(resolved.properties ?? {});
  // Unions and intersections (optional bodies, refinements) keep their fields one level down.
  const nested = [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])].flatMap(
    (s: JsonObject) => propertiesOf(document, s),
  );
  return [...new Set([...own, ...nested])];
}

export function operationsOf(document: JsonObject): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<JsonObject>(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<JsonObject>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters: JsonObject[] = (operation.parameters ?? []).map(
        (p: JsonObject) => resolveRef(document, p) ?? p,
      );
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        public: Array.isArray(operation.security) && operation.security.length === 0,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: bodySchema ? propertiesOf(document, bodySchema) : null,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------- hostile values

/** Values that are valid JSON and hostile to whatever reads them. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.constantFrom<unknown>(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '%00',
    "'; DROP TABLE signals; --",
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '\u202e\u0000\ufeff',
    'ａｃｔｉｖｅ',
    'active\u0000',
    '1e400',
    'NaN',
    -1,
    0,
    -0,
    1.5,
    2 ** 53 + 1,
    Number.MAX_VALUE,
    1e21,
    true,
    null,
    [],
    {},
    [null],
    'http://169.254.169.254/latest/meta-data/',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'http://[::1]:0/',
  ),
  fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => `item-${i}`)),
);

/** A JSON object whose own keys are `__proto__`, `constructor` and `prototype`: written as text, as an attacker sends it. */
const pollutionTexts = (fields: string[]) => {
  const field = fields[0] ?? 'name';
  return [
    '{"__proto__":{"polluted":"yes","isAdmin":true}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    `{"${field}":{"__proto__":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}`,
    `{"${field}":"x","config":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}`,
    '{"__proto__":[],"prototype":{},"toString":"x","valueOf":1,"hasOwnProperty":"x"}',
  ];
};

/** Deep nesting as text, beyond what recursive code survives. */
const deepText = fc
  .tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom('array', 'object', 'config'))
  .map(([depth, shape]) => {
    if (shape === 'array') return '['.repeat(depth) + ']'.repeat(depth);
    if (shape === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    return '{"name":"deep","config":' + '{"a":'.repeat(depth) + '1' + '}'.repeat(depth + 1);
  });

/** Bytes that are not UTF-8: lone continuation bytes, overlong forms, surrogates, truncated sequences. */
const invalidUtf8 = fc
  .tuple(
    fc.constantFrom(
      [0xff],
      [0xfe, 0xff],
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
      [0x80],
      [0xf0, 0x9f, 0x98],
    ),
    fc.constantFrom('bare', 'in-string', 'in-key'),
    fc.constantFrom('name', 'config', 'url', 'companies'),
  )
  .map(([bytes, where, field]) => {
    const bad = Buffer.from(bytes);
    if (where === 'bare') return Buffer.concat([bad, Buffer.from('{}')]);
    if (where === 'in-key') return Buffer.concat([Buffer.from('{"'), bad, Buffer.from('":1}')]);
    return Buffer.concat([Buffer.from(`{"${field}":"a`), bad, Buffer.from('b"}')]);
  });

const nonJsonText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '[',
    'undefined',
    "{'name':'x'}",
    'NaN',
    '[1,]',
    '{"a":1,}',
    '{"a":1}{"b":2}',
    '\u0000',
    'null',
    '"just a string"',
    '42',
    'true',
    '{"name":"x"',
    '\ufeff{"name":"x"}',
    '{"a":01}',
    '{"a":"\\x41"}',
    '{"a":"\\ud800"}',
  ),
  fc.string({ maxLength: 200 }),
  fc.string({ maxLength: 200, unit: 'binary' }),
);

export interface BodyCase {
  kind: string;
  bytes: Buffer;
}

const jsonBytes = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null', 'utf8');

/** An otherwise reasonable body with one field (top level or inside `config`) made hostile. */
function shapedBody(fields: string[]): fc.Arbitrary<BodyCase> {
  const names = fields.length > 0 ? fields : ['name'];
  return fc
    .tuple(
      fc.dictionary(fc.constantFrom(...names), hostileValue, { maxKeys: names.length }),
      fc.option(
        fc.dictionary(
          fc.oneof(
            fc.constantFrom(
              'jobTitles',
              'customTitles',
              'locations',
              'industryFilters',
              'companies',
              'sources',
              'getEmails',
              'maxJobAgeDays',
              'targetPersonas',
            ),
            fc.string(),
          ),
          hostileValue,
          { maxKeys: 4 },
        ),
        { nil: undefined },
      ),
    )
    .map(([top, config]) => ({
      kind: 'shaped',
      bytes: jsonBytes(config && names.includes('config') ? { ...top, config } : top),
    }));
}

/** Every kind of hostile body, for an operation with these body fields. */
export function hostileBody(fields: string[]): fc.Arbitrary<BodyCase> {
  return fc.oneof(
    fc.anything({ maxDepth: 4 }).map((v) => ({ kind: 'anything', bytes: jsonBytes(v) })),
    shapedBody(fields),
    shapedBody(fields),
    fc
      .constantFrom(...pollutionTexts(fields))
      .map((text) => ({ kind: 'prototype-pollution', bytes: Buffer.from(text) })),
    deepText.map((text) => ({ kind: 'deep-nesting', bytes: Buffer.from(text) })),
    fc
      .integer({ min: 1, max: 7 })
      .map((mb) => ({ kind: 'huge', bytes: Buffer.from(`{"name":"${'x'.repeat(mb * 1024 * 1024)}"}`) })),
    invalidUtf8.map((bytes) => ({ kind: 'invalid-utf8', bytes })),
    nonJsonText.map((text) => ({ kind: 'not-json', bytes: Buffer.from(text) })),
  );
}

/** Always tried, whatever the seed: the cases that broke services elsewhere. */
export function fixedBodies(fields: string[]): BodyCase[] {
  const field = fields.includes('name') ? 'name' : (fields[0] ?? 'name');
  return [
    ...pollutionTexts(fields).map((text) => ({ kind: 'prototype-pollution', bytes: Buffer.from(text) })),
    { kind: 'deep-nesting', bytes: Buffer.from('['.repeat(50_000) + ']'.repeat(50_000)) },
    {
      kind: 'deep-nesting',
      bytes: Buffer.from('{"name":"deep","config":' + '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_001)),
    },
    { kind: 'nul', bytes: Buffer.from(`{"${field}":"a\\u0000b"}`) },
    { kind: 'lone-surrogate', bytes: Buffer.from(`{"${field}":"a\\ud800b"}`) },
    {
      kind: 'invalid-utf8',
      bytes: Buffer.concat([Buffer.from(`{"${field}":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    },
    { kind: 'not-json', bytes: Buffer.from('{"name":') },
    { kind: 'huge', bytes: Buffer.from(`{"${field}":"${'x'.repeat(6 * 1024 * 1024)}"}`) },
  ];
}

/** Percent-encodes the UTF-8 bytes of any string, lone surrogates included (encodeURIComponent throws on them). */
export const percentEncode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** What Node's client lets through unescaped in a request target. */
const rawTargetText = (text: string) => text.replace(/[^\x21-\x7e]|#/g, '');

/** Query strings: known names with hostile values, unknown names, repeated names, broken escapes. */
export function hostileQuery(known: string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    fc.constantFrom(...known, '__proto__', 'constructor', 'toString', 'limit[]', 'status[0]', ''),
    fc.string({ maxLength: 20 }),
  );
  const value = fc.oneof(
    fc.constantFrom(
      '',
      '-1',
      '0',
      '1e400',
      'NaN',
      'Infinity',
      '999999999999999999999',
      '1.5',
      'true',
      '[]',
      '{}',
      'null',
      '%00',
      '\u0000',
      'active',
      'job_changes',
      '2026-13-45T25:61:61Z',
      '0000-00-00',
      '9999-12-31T23:59:59Z',
      '-271821-04-20T00:00:00Z',
      '+275760-09-13T00:00:00.001Z',
      "' OR 1=1 --",
    ),
    fc.string({ maxLength: 30 }),
    fc.string({ maxLength: 30, unit: 'binary' }),
    fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'y'.repeat(n)),
  );
  const pair = fc
    .tuple(name, value, fc.boolean())
    .map(([k, v, raw]) =>
      raw ? `${rawTargetText(k)}=${rawTargetText(v)}` : `${percentEncode(k)}=${percentEncode(v)}`,
    );
  return fc.oneof(
    fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.join('&')),
    fc.constantFrom(
      '%',
      '%%',
      '%zz=1',
      'limit=%E0%A4%A',
      'limit=1&limit=2',
      'offset=1&offset=x',
      '&&&',
      '=',
      '==',
      'a=1;b=2',
      'limit=%00',
    ),
  );
}

/** A path segment where an id belongs: real ids (by name, resolved at send time), random UUIDs, garbage. */
export const pathId = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '@own-job-changes',
      '@own-watchlist',
      '@own-fundraising',
      '@own-hiring',
      '@other-account',
    ),
  },
  { weight: 2, arbitrary: fc.uuid() },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }).map(percentEncode) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%E0%A4%A',
      '..',
      '%2e%2e',
      '%2F',
      'null',
      'undefined',
      '0',
      '%00',
      "'%20OR%201=1--",
      '00000000-0000-0000-0000-000000000000',
      'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
      'x'.repeat(5000),
    ),
  },
);

/** Headers a client should never send; `apiKey` is the caller's real key, misused in some of them. */
export interface HeaderCase {
  kind: string;
  headers: Record<string, string | string[]>;
}

export function hostileHeaders(apiKey: string): fc.Arbitrary<HeaderCase> {
  const auth = (value: string | string[]) => ({ Authorization: value });
  const json = { 'Content-Type': 'application/json' };
  return fc.oneof(
    fc
      .oneof(
        fc.constantFrom(
          '',
          'Bearer',
          'Bearer ',
          'Bearer  ',
          `Basic ${Buffer.from('user:pass').toString('base64')}`,
          `Bearer ${apiKey}x`,
          `Bearer ${apiKey.slice(0, -1)}`,
          apiKey,
          `Token ${apiKey}`,
          `Bearer USR_`,
          `Bearer USR_${'A'.repeat(4000)}`,
          `Bearer ${apiKey} extra`,
          'Bearer \u0001',
          'Bearer\tUSR_x',
          `Bearer ${apiKey}\u0000`,
          `Bearer usr_${apiKey.slice(4)}`,
        ),
        // Anything but line breaks, which would end the header: control characters and 8-bit bytes included.
        fc.string({ maxLength: 80, unit: 'binary' }).map((s) =>
          Buffer.from(s, 'utf8')
            .toString('latin1')
            .replace(/[\r\n]/g, ''),
        ),
        fc.string({ maxLength: 80 }).map((s) => `Bearer USR_${s.replace(/[\r\n]/g, '')}`),
      )
      .map((value): HeaderCase => ({ kind: 'bad-authorization', headers: { ...json, ...auth(value) } })),
    fc.constantFrom<HeaderCase>(
      {
        kind: 'duplicated-authorization',
        headers: { ...json, Authorization: [`Bearer USR_${'0'.repeat(40)}`, `Bearer ${apiKey}`] },
      },
      { kind: 'huge-authorization', headers: { ...json, ...auth(`Bearer USR_${'A'.repeat(40_000)}`) } },
      { kind: 'huge-header', headers: { ...json, ...auth(`Bearer ${apiKey}`), 'X-Filler': 'a'.repeat(40_000) } },
      {
        kind: 'many-headers',
        headers: {
          ...json,
          ...auth(`Bearer ${apiKey}`),
          ...Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`X-H${i}`, 'v'])),
        },
      },
      {
        kind: 'duplicated-content-type',
        headers: { ...auth(`Bearer ${apiKey}`), 'Content-Type': ['application/json', 'text/plain'] },
      },
      {
        kind: 'content-type',
        headers: { ...auth(`Bearer ${apiKey}`), 'Content-Type': 'application/json; charset=utf-16' },
      },
      {
        kind: 'content-type',
        headers: { ...auth(`Bearer ${apiKey}`), 'Content-Type': 'application/json; charset=latin1' },
      },
      { kind: 'content-type', headers: { ...auth(`Bearer ${apiKey}`), 'Content-Type': 'text/plain' } },
      {
        kind: 'content-type',
        headers: { ...auth(`Bearer ${apiKey}`), 'Content-Type': 'application/x-www-form-urlencoded' },
      },
      {
        kind: 'content-type',
        headers: { ...auth(`Bearer ${apiKey}`), 'Content-Type': 'multipart/form-data; boundary=x' },
      },
      { kind: 'content-type', headers: { ...auth(`Bearer ${apiKey}`), 'Content-Type': '*/*' } },
      { kind: 'content-type', headers: { ...auth(`Bearer ${apiKey}`), 'Content-Type': 'application/json;;;' } },
      { kind: 'content-encoding', headers: { ...json, ...auth(`Bearer ${apiKey}`), 'Content-Encoding': 'gzip' } },
      { kind: 'content-encoding', headers: { ...json, ...auth(`Bearer ${apiKey}`), 'Content-Encoding': 'deflate' } },
      { kind: 'content-encoding', headers: { ...json, ...auth(`Bearer ${apiKey}`), 'Content-Encoding': 'br' } },
      { kind: 'content-encoding', headers: { ...json, ...auth(`Bearer ${apiKey}`), 'Content-Encoding': 'x-unknown' } },
      {
        kind: 'request-id',
        headers: { ...json, ...auth(`Bearer ${apiKey}`), 'X-Request-Id': `../../${'r'.repeat(5000)}` },
      },
      {
        kind: 'forwarded',
        headers: {
          ...json,
          ...auth(`Bearer ${apiKey}`),
          'X-Forwarded-For': 'not-an-ip, ::ffff:999.1.1.1, ' + '1.'.repeat(2000),
        },
      },
      { kind: 'expect', headers: { ...json, ...auth(`Bearer ${apiKey}`), Expect: 'teapot' } },
      { kind: 'invalid-header-name', headers: { ...json, ...auth(`Bearer ${apiKey}`), 'X Bad(Name)': 'v' } },
      { kind: 'control-characters', headers: { ...json, ...auth(`Bearer ${apiKey}`), 'X-Note': 'a\u0000b\u0007c' } },
    ),
  );
}

// ---------------------------------------------------------------- checks

/** The specification's error envelope: `{"error": {"code": string, "message": string, ...}}`. */
export function envelopeProblem(answer: RawAnswer): string | undefined {
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `body is not JSON: ${JSON.stringify(answer.text.slice(0, 200))}`;
  }
  if (typeof body?.error?.code !== 'string' || typeof body?.error?.message !== 'string') {
    return `body is not an error envelope: ${answer.text.slice(0, 300)}`;
  }
  if (!String(answer.headers['content-type'] ?? '').startsWith('application/json'))
    return `content-type ${answer.headers['content-type']}`;
  return undefined;
}

/** Per database, the one query that fingerprints every table: the tables do not change during a file. */
const fingerprintQueries = new WeakMap<DataSource, Promise<string>>();

async function fingerprintQuery(db: DataSource): Promise<string> {
  const tables: { name: string }[] = await db.query(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('migrations', 'typeorm_metadata', 'rate_limits')
     ORDER BY table_name`,
  );
  return tables
    .map(({ name }) => {
      // A key's last use is stamped at most once a minute, off the request path, refused or not.
      const row =
        name === 'signals'
          ? `(s.id, s.name, s.status, s.config, s.webhook_url, s.destinations, s.daily_lead_limit, s.duplicate_handling, s.deleted_at)::text`
          : name === 'api_keys'
            ? `(to_jsonb(s) - 'last_used_at')::text`
            : `s::text`;
      return `SELECT '${name}' AS name, count(*)::text || ' rows, ' || coalesce(md5(string_agg(${row}, ',' ORDER BY ${row})), '-') AS value FROM ${name} s`;
    })
    .concat(
      `SELECT 'balance' AS name, coalesce(sum(credits), 0)::text AS value FROM credit_ledger WHERE account_id = $1`,
    )
    .join(' UNION ALL ');
}

/**
 * Everything a refused request must leave alone: the row count and content of every table
 * (user-controlled columns of signals only: an evaluation started by an earlier valid request
 * may stamp its own bookkeeping columns at any time), and the account balance.
 */
export async function fingerprint(db: DataSource, accountId: string): Promise<Record<string, string>> {
  let query = fingerprintQueries.get(db);
  if (!query) fingerprintQueries.set(db, (query = fingerprintQuery(db)));
  const rows: { name: string; value: string }[] = await db.query(await query, [accountId]);
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}

/** Keys an attacker tries to plant on Object.prototype; the API runs in this process, so a success shows here. */
export function prototypePollution(): string[] {
  const probe: Record<string, unknown> = {};
  return ['polluted', 'isAdmin', 'toString', 'valueOf', 'hasOwnProperty']
    .filter((key) => (key === 'polluted' || key === 'isAdmin' ? key in probe : typeof probe[key] !== 'function'))
    .concat(Object.keys(Object.prototype));
}

/** The seed of this run, printed so a failure can be replayed with FC_SEED. */
export function runSeed(): number {
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;

  console.log(`[bad-input] fast-check seed ${seed} (replay with FC_SEED=${seed})`);
  return seed;
}
