import type { AiChatRequest, AiChatResult, AiPurpose, AiUsage } from '../../ai-model/index.js';
import { estimateCostUsd } from '../../ai-model/index.js';
import type { Clock } from '../../kernel/index.js';
import { MarginError } from '../../kernel/index.js';
import { isPriced } from '../budget/spend-caps.js';
import { type JobUsage, jobUsageOf, type ModelCallUsage } from '../protocol/job-usage.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { ReviewModel } from '../review-engine-v1.js';

/** Tokens and estimated cost of every model call of a job, one by one as they return. */
export class UsageLedger {
  private readonly calls: ModelCallUsage[] = [];
  private costMicroUsd = 0;

  /** `onCall` hears each call as it is counted (a failed review still accounts for it; a shared budget learns it). */
  constructor(private readonly onCall?: (call: ModelCallUsage) => void) {}

  add(model: ReviewModel, purpose: AiPurpose, usage: AiUsage, at: string): void {
    // Each call is rounded to a millionth of a dollar once; every sum after that is exact.
    const costMicroUsd = Math.round(estimateCostUsd(usage, model.prices) * MICROS);
    this.costMicroUsd += costMicroUsd;
    const call: ModelCallUsage = {
      at,
      purpose,
      logicalModel: model.logicalModel ?? null,
      connectionId: model.connectionId,
      remoteModelId: model.model.remoteModelId,
      inputTokens: usage.inputTokens + usage.cacheWriteTokens,
      cachedInputTokens: usage.cachedInputTokens,
      outputTokens: usage.outputTokens,
      reasoningTokens: usage.reasoningTokens,
      estimatedCostUsd: costMicroUsd / MICROS,
      costIsApproximate: !isPriced(model.prices),
    };
    this.calls.push(call);
    this.onCall?.(call);
  }

  /** US$ spent so far at the models' prices: what the hard spend cap is checked against. */
  costUsd(): number {
    return this.costMicroUsd / MICROS;
  }

  /** The job status's `usage` (decisions.md): totals and one entry per model and purpose, and the calls. */
  toJobUsage(): JobUsage {
    return jobUsageOf(this.calls);
  }
}

const MICROS = 1_000_000;

/** A model call's (or several calls') usage as a protocol pass records its tokens. */
export function passTokens(usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number }) {
  return {
    inputTokens: usage.inputTokens,
    cachedInputTokens: usage.cachedInputTokens,
    outputTokens: usage.outputTokens,
  };
}

/**
 * The model's `chat` as one stage calls it: with the job's signal, counted in the ledger, and
 * written to the stage's protocol pass as an `ai-call` event (tokens, duration, outcome — never
 * the prompt, which holds code).
 */
export function meteredChat(
  model: ReviewModel,
  purpose: AiPurpose,
  ledger: UsageLedger,
  pass: ProtocolPass,
  clock: Clock,
  signal: AbortSignal,
): { remoteModelId: string; chat(request: AiChatRequest): Promise<AiChatResult> } {
  return {
    remoteModelId: model.model.remoteModelId,
    async chat(request) {
      const started = clock.now().getTime();
      try {
        const result = await model.model.chat({
          ...request,
          reasoningEffort: request.reasoningEffort ?? effort(model),
          signal,
        });
        ledger.add(model, purpose, result.usage, clock.now().toISOString());
        pass.event({
          kind: 'call',
          name: 'chat',
          eventCategory: 'ai-call',
          durationMs: clock.now().getTime() - started,
          inputTokens: result.usage.inputTokens + result.usage.cachedInputTokens + result.usage.cacheWriteTokens,
          outputTokens: result.usage.outputTokens,
          body: {
            purpose,
            resolvedPurpose: model.resolvedPurpose,
            model: model.model.remoteModelId,
            protocolMode: result.protocolMode,
            finishReason: result.finishReason,
            // A named tool choice is the forced answer tool; tools the model may call are an exploration turn.
            rung: request.responseFormat
              ? 'nativeSchema'
              : typeof request.toolChoice === 'object'
                ? 'forcedTool'
                : request.tools && request.tools.length > 0
                  ? 'exploration'
                  : 'text',
            cachedInputTokens: result.usage.cachedInputTokens,
          },
        });
        return result;
      } catch (error) {
        pass.event({
          kind: 'failure',
          name: 'chat.failed',
          eventCategory: 'ai-call',
          durationMs: clock.now().getTime() - started,
          body: {
            purpose,
            model: model.model.remoteModelId,
            failure: MarginError.isInstance(error) ? (error.details.providerFailure ?? error.code) : 'unexpected',
            message: MarginError.isInstance(error) ? error.message : 'The call failed unexpectedly.',
          },
        });
        throw error;
      }
    },
  };
}

function effort(model: ReviewModel) {
  return model.reasoningEffort === 'none' ? undefined : model.reasoningEffort;
}
