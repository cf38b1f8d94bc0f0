/**
 * What the runtime logs through: structured fields first, then the message, as pino takes them, so
 * a pino logger (the reference host's) fits as it is. Fields may carry an `err`; never a secret.
 */
export interface MarginLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Drops everything (tests, or a host that does not want the runtime's lines). */
export const silentLogger: MarginLogger = {
  info() {},
  warn() {},
  error() {},
};

/**
 * The default when a host passes none: warnings and errors to the console (stderr), progress
 * (`info`) dropped, so a failing background round is never silent.
 */
export const consoleLogger: MarginLogger = {
  info() {},
  warn: (fields, message) => console.warn(`margin: ${message}`, fields),
  error: (fields, message) => console.error(`margin: ${message}`, fields),
};
