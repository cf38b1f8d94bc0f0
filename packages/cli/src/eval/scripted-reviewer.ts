import { MarginError, VERIFY_SYSTEM_PROMPT } from '@margin/core';
import type { AiChatRequest, AiModelV1 } from '@margin/core/spec';
import type { EvalCaseSpec } from './eval-case.js';
import { JUDGE_SYSTEM_PROMPT } from './judge.js';

export type CallPurpose = 'review' | 'repair' | 'verify' | 'judge';

export function purposeOf(request: AiChatRequest): CallPurpose {
  if (request.system?.startsWith(VERIFY_SYSTEM_PROMPT)) return 'verify';
  if (request.system?.startsWith(JUDGE_SYSTEM_PROMPT)) return 'judge';
  return request.messages.length > 1 ? 'repair' : 'review';
}

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 3.5));

/**
 * The reviewer whose answers `--record-scripted` records for the scripted mode: it reports the
 * case's `scripted.findings` for the files of the chunk it is shown, in the engine's answer
 * schema, scores them as `scripted` says when verifying, and can answer unreadably once (to keep
 * the repair path measured). It is not a model: it stands in for one so that everything around
 * the model — git reading, planning, anchoring, gating, scoring — is checked on every run.
 */
export function scriptedReviewer(spec: EvalCaseSpec): AiModelV1 {
  return {
    specificationVersion: 'v1',
    providerKind: 'kindCompatible',
    remoteModelId: 'scripted',
    async chat(request) {
      const user = request.messages.map((m) => m.content).join('\n');
      const purpose = purposeOf(request);
      const text =
        purpose === 'verify'
          ? verdicts(spec, user)
          : purpose === 'judge'
            ? JSON.stringify({ match: true, why: 'The scripted judge accepts every deterministic match.' })
            : purpose === 'review' && spec.scripted.unreadableFirst
              ? 'The change looks mostly fine; I have a few notes on the totals.'
              : findings(spec, user);
      return {
        text,
        toolCalls: [],
        finishReason: 'stop',
        usage: {
          inputTokens: tokens(`${request.system ?? ''}${user}`),
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
          outputTokens: tokens(text),
          reasoningTokens: 0,
        },
        protocolMode: 'chatCompletions',
      };
    },
    async embed() {
      throw MarginError.provider('invalidResponse', 'The scripted reviewer has no embeddings.');
    },
  };
}

function findings(spec: EvalCaseSpec, user: string): string {
  const shown = new Set([...user.matchAll(/^## File: (\S+)/gm)].map((m) => m[1]));
  const items = spec.scripted.findings
    .filter((f) => shown.has(f.file))
    .map((f) => ({
      path: f.file,
      quote: f.quote,
      startLine: f.line,
      endLine: f.line,
      category: f.category,
      title: f.title,
      evidence: 'Visible in the diff.',
      claim: { kind: 'none', symbol: null, path: null },
      severity: f.severity,
      confidence: f.confidence,
      message: f.message,
      suggestion: null,
      ruleId: null,
    }));
  return JSON.stringify({ findings: items, fileNotes: null });
}

function verdicts(spec: EvalCaseSpec, user: string): string {
  const listed = [...user.matchAll(/^(F\d+)\. [^\n]*\nTitle: ([^\n]*)/gm)];
  return JSON.stringify({
    items: listed.map(([, id, title]) => {
      const score = spec.scripted.findings.find((f) => f.title === title)?.score ?? 8;
      return {
        id,
        score,
        why: score >= 6 ? 'The defect is visible in the diff.' : 'Speculative: depends on code not shown.',
        features: {
          isDefect: score >= 6,
          requiresAssumedInput: false,
          isQualityOpinion: false,
          targetsUnchangedCode: false,
          suggestionIsCorrect: null,
        },
        locatedQuote: null,
      };
    }),
  });
}
