import type { AiChatRequest, AiChatResult, AiPurpose, AiUsage } from '../../ai-model/index.js';
import { addUsage, emptyUsage, estimateCostUsd } from '../../ai-model/index.js';
import type { Clock } from '../../kernel/index.js';
import { MarginError } from '../../kernel/index.js';
import { isPriced } from '../budget/spend-caps.js';
import type { JobUsage, ModelCallUsage } from '../protocol/job-usage.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { ReviewModel } from '../review-engine-v1.js';

interface Entry {
  connectionId: string;
  remoteModelId: string;
  purpose: AiPurpose;
  usage: AiUsage;
  /** Whole millionths of a US dollar, so the job's totals and the ledger's sums agree exactly. */
  costMicroUsd: number;
}

/** Tokens and estimated cost of every model call of a job, by model and purpose, and one by one. */
export class UsageLedger {
  private readonly entries = new Map<string, Entry>();
  private readonly calls: ModelCallUsage[] = [];

  /** `onCost` hears each call's cost as it is counted (a shared budget learns spend before the job ends). */
  constructor(private readonly onCost?: (usd: number) => void) {}

  add(model: ReviewModel, purpose: AiPurpose, usage: AiUsage, at: string): void {
    const key = `${model.connectionId}\u0000${model.model.remoteModelId}\u0000${purpose}`;
    const entry = this.entries.get(key) ?? {
      connectionId: model.connectionId,
      remoteModelId: model.model.remoteModelId,
      purpose,
      usage: emptyUsage(),
      costMicroUsd: 0,
    };
    // Each call is rounded to a millionth of a dollar once; every sum after that is exact.
    const costMicroUsd = Math.round(estimateCostUsd(usage, model.prices) * MICROS);
    entry.usage = addUsage(entry.usage, usage);
    entry.costMicroUsd += costMicroUsd;
    this.entries.set(key, entry);
    this.onCost?.(costMicroUsd / MICROS);
    this.calls.push({
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
    });
  }

  /** US$ spent so far at the models' prices: what the hard spend cap is checked against. */
  costUsd(): number {
    let sum = 0;
    for (const e of this.entries.values()) sum += e.costMicroUsd;
    return sum / MICROS;
  }

  total(): AiUsage {
    let sum = emptyUsage();
    for (const e of this.entries.values()) sum = addUsage(sum, e.usage);
    return sum;
  }

  /** The job status's `usage` (decisions.md): totals and one entry per model and purpose, and the calls. */
  toJobUsage(): JobUsage {
    const entries = [...this.entries.values()];
    const byModel = entries.map((e) => ({
      connectionId: e.connectionId,
      remoteModelId: e.remoteModelId,
      purpose: e.purpose,
      inputTokens: e.usage.inputTokens + e.usage.cacheWriteTokens,
      cachedInputTokens: e.usage.cachedInputTokens,
      outputTokens: e.usage.outputTokens,
      estimatedCostUsd: e.costMicroUsd / MICROS,
    }));
    return {
      inputTokens: byModel.reduce((n, m) => n + m.inputTokens, 0),
      cachedInputTokens: byModel.reduce((n, m) => n + m.cachedInputTokens, 0),
      outputTokens: byModel.reduce((n, m) => n + m.outputTokens, 0),
      estimatedCostUsd: entries.reduce((n, e) => n + e.costMicroUsd, 0) / MICROS,
      byModel,
      calls: this.calls.map((c) => ({ ...c })),
    };
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
