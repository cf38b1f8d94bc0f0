import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Field names pino blanks out, at the top level and one level down. Defence in depth: request logs
 * carry no headers, bodies or query strings in the first place.
 */
export const REDACTED_PATHS = [
  '*.password',
  '*.secret',
  '*.apiKey',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.generatedSecret',
  'password',
  'secret',
  'apiKey',
  'token',
];

export function createLogger(options: { level: string; destination?: pino.DestinationStream | undefined }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'margin' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    // Asynchronous stdout: a log line per request must not cost a blocking write each.
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
