/**
 * Domain errors thrown by services and route handlers. The API's single error
 * middleware turns them into the specification's envelope; nothing else builds
 * error bodies.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = code;
  }
}

export interface FieldProblem {
  field: string;
  message: string;
}

interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  /** `invalid_union`: each branch's own issues, their paths relative to the union. */
  errors?: SchemaIssue[][];
  maximum?: number | bigint;
  minimum?: number | bigint;
}

/**
 * A union none of whose branches matched says only "Invalid input" on the union's field. When
 * the input has the shape of exactly one branch (the others refuse its very type), that
 * branch's issues are the ones that help: a suppression with an unknown `kind` names the kinds.
 */
function unionIssuesOf(issue: SchemaIssue): SchemaIssue[] {
  const shapeRefused = (branch: SchemaIssue[]) =>
    branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0);
  const matching = (issue.errors ?? []).filter((branch) => !shapeRefused(branch));
  if (matching.length !== 1) return [issue];
  return matching[0]!.flatMap((inner) => unionIssuesOf({ ...inner, path: [...issue.path, ...inner.path] }));
}

/**
 * One bound per field: a number over several maxima (an integer's safe range and the field's
 * own limit) is told the tightest one only, not one message per limit.
 */
function tightestBounds(issues: SchemaIssue[]): SchemaIssue[] {
  const kept = new Map<string, SchemaIssue>();
  const rest: SchemaIssue[] = [];
  for (const issue of issues) {
    if (issue.code !== 'too_big' && issue.code !== 'too_small') {
      rest.push(issue);
      continue;
    }
    const key = `${issue.code}:${issue.path.map(String).join('.')}`;
    const held = kept.get(key);
    const tighter =
      !held ||
      (issue.code === 'too_big'
        ? Number(issue.maximum) < Number(held.maximum)
        : Number(issue.minimum) > Number(held.minimum));
    if (tighter) kept.set(key, issue);
  }
  const bounds = new Set(kept.values());
  return issues.filter((issue) => rest.includes(issue) || bounds.has(issue));
}

/** A schema failure as one problem per field; an unknown key is named in its own problem. */
export function fieldProblemsOf(error: { issues: SchemaIssue[] }, prefix?: string): FieldProblem[] {
  const issues = tightestBounds(
    error.issues.flatMap((issue) => (issue.code === 'invalid_union' ? unionIssuesOf(issue) : [issue])),
  );
  return issues.flatMap((issue) => {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      return issue.keys.map((key) => ({
        field: base ? `${base}.${key}` : key,
        message: `"${key}" is not a known field here`,
      }));
    }
    return [{ field: base, message: issue.message }];
  });
}

export const invalidRequest = (message: string, extra: Record<string, unknown> = {}) =>
  new AppError(400, 'INVALID_REQUEST', message, extra);

export const validationError = (details: FieldProblem[], message?: string) =>
  new AppError(
    422,
    'VALIDATION_ERROR',
    message ?? details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; '),
    { details },
  );

export const notFound = (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found`);

export const unauthorized = (
  message = 'Missing or malformed Authorization header; send "Authorization: Bearer <API_KEY>"',
) => new AppError(401, 'UNAUTHORIZED', message);

export const invalidApiKey = () => new AppError(401, 'INVALID_API_KEY', 'The API key is invalid or revoked');

export const forbidden = (permission: string) =>
  new AppError(403, 'FORBIDDEN', `This API key lacks the "${permission}" permission`);

export const insufficientCredits = (message = 'The account has no credits left') =>
  new AppError(402, 'INSUFFICIENT_CREDITS', message);

export const conflict = (code: string, message: string) => new AppError(409, code, message);

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'RATE_LIMITED',
    'Too many requests for this API key; wait Retry-After seconds and resend',
    {},
    { 'Retry-After': String(retryAfterSeconds) },
  );
