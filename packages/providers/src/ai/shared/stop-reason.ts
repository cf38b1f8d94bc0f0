import type { AiFinishReason } from '@margin/core/spec';

/**
 * Anthropic's Messages API and Bedrock's Converse API name their stop reasons the same way
 * (`end_turn`, `max_tokens`, `tool_use`, …); each adds its own content-filter names, which never
 * collide, so one mapping serves both.
 */
export function finishReasonOfStop(stop: string | undefined): AiFinishReason {
  switch (stop) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'toolCalls';
    case 'refusal': // Messages
    case 'guardrail_intervened': // Converse
    case 'content_filtered': // Converse
      return 'contentFilter';
    default:
      return 'other';
  }
}
