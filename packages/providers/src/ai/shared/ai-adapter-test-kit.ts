/**
 * Helpers for the adapter tests: a runtime pointed at loopback fakes, profiles, requests.
 * Test-only; nothing outside `*.test.ts` imports it. Fixtures: `fixtureReader` of `../../testing/fixture-reader.js`.
 */
import {
  type AiConnectionConfig,
  type AiConnectionProfile,
  type AiKindSettings,
  type AiModelSpec,
  type AiProviderKind,
  type AiProviderKindV1,
  aiConnectionConfigOf,
} from '@margin/core/spec';
import { type AiRuntime, type AiRuntimeOptions, createAiRuntime } from './ai-runtime.js';

/** Loopback fakes need private egress; retries are kept fast. */
export function fakeRuntime(options: AiRuntimeOptions = {}): AiRuntime {
  return createAiRuntime({ allowPrivateEgress: true, retries: 2, backoffBaseMs: 1, ...options });
}

/** A connection as an adapter receives it, `settings` and real `defaultQueryParams` given apart. */
export function profile(
  providerKind: AiProviderKind,
  baseUrl: string,
  extra: Partial<AiConnectionConfig> = {},
): AiConnectionConfig {
  return {
    providerKind,
    baseUrl,
    auth: { mode: 'apiKey', apiKey: 'sk-test-secret-0123456789' },
    defaultHeaders: {},
    defaultQueryParams: {},
    settings: {},
    ...extra,
  };
}

export function chatSpec(remoteModelId: string, extra: Partial<AiModelSpec> = {}): AiModelSpec {
  return {
    remoteModelId,
    protocolMode: 'auto',
    operationKinds: ['chat'],
    supportsStructuredOutput: true,
    supportsToolUse: true,
    ...extra,
  };
}

export function embeddingSpec(remoteModelId: string, extra: Partial<AiModelSpec> = {}): AiModelSpec {
  return {
    remoteModelId,
    protocolMode: 'auto',
    operationKinds: ['embedding'],
    supportsStructuredOutput: false,
    supportsToolUse: false,
    ...extra,
  };
}

export const REVIEW_SCHEMA = {
  type: 'object',
  properties: {
    findings: {
      type: 'array',
      items: {
        type: 'object',
        properties: { line: { type: 'integer' }, message: { type: 'string' } },
        required: ['line', 'message'],
        additionalProperties: false,
      },
    },
  },
  required: ['findings'],
  additionalProperties: false,
} as const;

export const READ_FILE_TOOL = {
  name: 'read_file',
  description: 'Read a slice of a file from the repository.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' }, startLine: { type: 'integer' } },
    required: ['path'],
  },
};

/** The tool the review engine forces to get structured output from models without a JSON mode. */
export const REPORT_FINDINGS_TOOL = {
  name: 'report_findings',
  description: 'Report the review findings.',
  parameters: REVIEW_SCHEMA as unknown as Record<string, unknown>,
};

/** The request behind the `request-*-forced-tool` fixtures: one diff, one tool, that tool forced. */
export const FORCED_TOOL_REQUEST = {
  system: 'You are a code reviewer. Report findings with the report_findings tool.',
  messages: [
    { role: 'user' as const, content: 'diff --git a/src/a.ts b/src/a.ts\n@@ -1 +1 @@\n-let a = 1\n+let a = 2' },
  ],
  tools: [REPORT_FINDINGS_TOOL],
  toolChoice: { name: 'report_findings' },
};

/** The JSON body of the n-th request a fake received. */
export function sentBody(requests: ReadonlyArray<{ json: unknown }>, index: number): Record<string, unknown> {
  const body = requests[index]?.json;
  if (typeof body !== 'object' || body === null) throw new Error(`request ${index} had no JSON body`);
  return body as Record<string, unknown>;
}

/**
 * A connection from a profile as it is stored and sent (the kind's settings among
 * `defaultQueryParams`), split by the kind's declared settings exactly as core splits it.
 */
export function storedProfile<T extends AiKindSettings>(
  kind: AiProviderKindV1<T>,
  baseUrl: string,
  extra: Partial<AiConnectionProfile> = {},
): AiConnectionConfig<T> {
  return aiConnectionConfigOf(kind, { ...profile(kind.kind, baseUrl), ...extra });
}
