import type { AiUsage } from '@margin/core/spec';

export function usageOf(parts: Partial<AiUsage>): AiUsage {
  const clamp = (n: number | undefined) => (n !== undefined && Number.isFinite(n) && n > 0 ? n : 0);
  return {
    inputTokens: clamp(parts.inputTokens),
    cachedInputTokens: clamp(parts.cachedInputTokens),
    cacheWriteTokens: clamp(parts.cacheWriteTokens),
    outputTokens: clamp(parts.outputTokens),
    reasoningTokens: clamp(parts.reasoningTokens),
  };
}

export function sumUsage(items: readonly AiUsage[]): AiUsage {
  return usageOf({
    inputTokens: items.reduce((n, u) => n + u.inputTokens, 0),
    cachedInputTokens: items.reduce((n, u) => n + u.cachedInputTokens, 0),
    cacheWriteTokens: items.reduce((n, u) => n + u.cacheWriteTokens, 0),
    outputTokens: items.reduce((n, u) => n + u.outputTokens, 0),
    reasoningTokens: items.reduce((n, u) => n + u.reasoningTokens, 0),
  });
}
