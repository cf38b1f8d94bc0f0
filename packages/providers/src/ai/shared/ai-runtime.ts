import type { lookup as dnsLookup } from 'node:dns';
import {
  assertEgressUrlAllowed,
  createEgressGuardedFetch,
  createTransport,
  type ErrorAnswer,
  type ErrorVerdict,
  type HttpTransport,
} from '../../utils/index.js';

/** The deadline of one attempt of a call to a model when `timeoutMs` is not given. */
export const DEFAULT_AI_TIMEOUT_MS = 120_000;

/** What every AI kind shares: the guarded network, retry tuning, a clock. Built once per host. */
export interface AiRuntimeOptions {
  /**
   * The network underneath the egress guard. Default: undici with the address check at connect
   * time. A supplied fetch is still guarded, with the address checked by a lookup before the call.
   */
  fetch?: typeof fetch | undefined;
  /** `MARGIN_ALLOW_PRIVATE_EGRESS`: allow loopback/private hosts and plain http (local models, fakes). */
  allowPrivateEgress?: boolean | undefined;
  /** Name resolution for the egress guard (tests). */
  lookup?: typeof dnsLookup | undefined;
  /** Retries after the first attempt. Default 3. */
  retries?: number | undefined;
  /** Exponential backoff base when the vendor names no wait. Default 500 ms. */
  backoffBaseMs?: number | undefined;
  /**
   * The deadline of one attempt of a call, connecting to the last byte of the answer. Default 120 s:
   * long reviews take a while to generate. Retries get a fresh one; see `TransportOptions.timeoutMs`.
   */
  timeoutMs?: number | undefined;
  /** A vendor wait longer than this fails the call as rate limited instead. Default 60 s. */
  maxRetryDelayMs?: number | undefined;
  /** Epoch milliseconds; token caches and SigV4 dates read it. */
  now?: (() => number) | undefined;
  /** Anthropic requires `max_tokens`; used when a request names none. Default 4096. */
  defaultMaxOutputTokens?: number | undefined;
}

export interface AiRuntime {
  readonly allowPrivateEgress: boolean;
  readonly fetch: typeof fetch;
  readonly now: () => number;
  readonly defaultMaxOutputTokens: number;
  transport(options: AiTransportOptions): HttpTransport;
}

export interface AiTransportOptions {
  /** Vendor name for messages: `OpenAI answered 401: …`. */
  provider: string;
  secrets: () => readonly string[];
  inspectError?: ((answer: ErrorAnswer) => ErrorVerdict | undefined) | undefined;
}

export function createAiRuntime(options: AiRuntimeOptions = {}): AiRuntime {
  const allowPrivateEgress = options.allowPrivateEgress === true;
  const guarded = createEgressGuardedFetch({ allowPrivateEgress, fetch: options.fetch, lookup: options.lookup });
  return {
    allowPrivateEgress,
    fetch: guarded,
    now: options.now ?? Date.now,
    defaultMaxOutputTokens: options.defaultMaxOutputTokens ?? 4096,
    transport(transportOptions) {
      const transport = createTransport({
        provider: transportOptions.provider,
        fetch: guarded,
        followRedirects: false,
        retries: options.retries,
        backoffBaseMs: options.backoffBaseMs,
        timeoutMs: options.timeoutMs ?? DEFAULT_AI_TIMEOUT_MS,
        maxRetryDelayMs: options.maxRetryDelayMs,
        secrets: transportOptions.secrets,
        inspectError: transportOptions.inspectError,
      });
      return {
        async request(request) {
          // Refuse a forbidden URL before the transport, which would retry a refusal like a network error.
          assertEgressUrlAllowed(request.url, allowPrivateEgress);
          return transport.request(request);
        },
      };
    },
  };
}
