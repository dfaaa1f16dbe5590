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
}

/** A schema failure as one problem per field; an unknown key is named in its own problem. */
export function fieldProblemsOf(error: { issues: SchemaIssue[] }, prefix?: string): FieldProblem[] {
  return error.issues.flatMap((issue) => {
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
