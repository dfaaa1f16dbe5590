import pino from 'pino';

const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  '*.apiKey',
  '*.webhookSecret',
  '*.accessToken',
  '*.refreshToken',
  'apiKey',
  'webhookSecret',
  'accessToken',
  'refreshToken',
  '*.token',
  '*.inviteUrl',
  'token',
  'inviteUrl',
];

/**
 * One structured JSON logger for every process. Fields that may carry credentials are
 * redacted by path so that a careless `log.info({ req })` never writes a key or secret.
 */
export function createLogger(
  level = process.env.LOG_LEVEL ?? 'info',
  name = 'intent-leads',
  destination?: pino.DestinationStream,
) {
  const options = { name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

export type Logger = ReturnType<typeof createLogger>;
