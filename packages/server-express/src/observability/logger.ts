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
  '*.clientSecret',
  'clientSecret',
  'password',
  'secret',
  'apiKey',
  'token',
];

const FLUSH_EVERY_MS = 250;

/**
 * Where log lines go: written asynchronously in chunks of about 4 KiB rather than one system call per
 * line (a line per request would otherwise cost more than serving many requests), and flushed at
 * least every 250 ms so a quiet host's lines are never held back long. `close()` flushes the rest.
 */
export function createLogDestination(dest: string | number = 1): pino.DestinationStream {
  const stream = pino.destination({ dest, sync: false, minLength: 4096 });
  const timer = setInterval(() => {
    try {
      stream.flush();
    } catch {
      // not open yet, or already closed
    }
  }, FLUSH_EVERY_MS);
  timer.unref();
  stream.on('close', () => clearInterval(timer));
  return stream;
}

export function createLogger(options: { level: string; destination?: pino.DestinationStream | undefined }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'margin' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? createLogDestination(),
  );
}
