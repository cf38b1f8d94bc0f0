import { DEFAULT_AI_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '@margin/providers';
import { z } from 'zod';

// The fields the CLI's environment and the reference host's are read with, so both read a variable
// the same way (the host reads the same deadlines and plugins the CLI does).

export const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

/** A whole number from `min` to `max`; unset or empty means `fallback`. */
export const wholeNumber = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

/** A plain decimal amount of US dollars (`2.50`): `1e3`, `0x10` or `Infinity` are not amounts anyone means. */
export const USD_AMOUNT = /^\d+(\.\d+)?$/;

/** A positive amount of US dollars (`2.50`); unset or empty means none. */
export const usd = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const text = v?.trim() ?? '';
    if (text === '') return undefined;
    if (!USD_AMOUNT.test(text) || Number(text) <= 0) {
      ctx.addIssue({ code: 'custom', message: 'must be a positive amount of US dollars, such as 2.50' });
      return z.NEVER;
    }
    return Number(text);
  });

/** `MARGIN_REVIEW_SOFT_CAP_USD` and `MARGIN_REVIEW_HARD_CAP_USD`: what one review may spend (docs/operations.md). */
export const SPEND_CAP_FIELDS = {
  MARGIN_REVIEW_SOFT_CAP_USD: usd,
  MARGIN_REVIEW_HARD_CAP_USD: usd,
};

/** Deadlines of one attempt of an outbound call, in milliseconds (each retry gets a fresh one). */
export interface CallTimeouts {
  aiMs: number;
  scmMs: number;
}

/** `MARGIN_AI_TIMEOUT_SECONDS` and `MARGIN_SCM_TIMEOUT_SECONDS` (docs/operations.md). */
export const CALL_TIMEOUT_FIELDS = {
  MARGIN_AI_TIMEOUT_SECONDS: wholeNumber(1, 3600, DEFAULT_AI_TIMEOUT_MS / 1000),
  MARGIN_SCM_TIMEOUT_SECONDS: wholeNumber(1, 3600, DEFAULT_TIMEOUT_MS / 1000),
};

export const callTimeoutsOf = (e: {
  MARGIN_AI_TIMEOUT_SECONDS: number;
  MARGIN_SCM_TIMEOUT_SECONDS: number;
}): CallTimeouts => ({
  aiMs: e.MARGIN_AI_TIMEOUT_SECONDS * 1000,
  scmMs: e.MARGIN_SCM_TIMEOUT_SECONDS * 1000,
});

/** A switch that is on unless set to `false` or `0`. */
export const onUnlessFalse = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v !== 'false' && v !== '0');

/**
 * `MARGIN_PROVIDER_STATUS`: the reference host's review status on the pull request's head commit
 * (docs/operations.md, docs/conversations.md); on unless `false`.
 */
export const PROVIDER_STATUS_FIELDS = {
  MARGIN_PROVIDER_STATUS: onUnlessFalse,
};
