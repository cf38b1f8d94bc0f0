import type { AiMessage, AiToolCall } from '@margin/core/spec';
import type { JsonObject } from '../../utils/index.js';

type ToolMessage = Extract<AiMessage, { role: 'tool' }>;

/** How one API spells each kind of content block. */
export interface TurnBlocks {
  text(text: string): JsonObject;
  toolUse(call: AiToolCall): JsonObject;
  toolResult(message: ToolMessage): JsonObject;
}

/**
 * Anthropic's Messages API and Bedrock's Converse API both want strictly alternating user and
 * assistant turns: tool results travel in the next user turn, consecutive messages of one role are
 * merged, and empty text blocks (which both refuse) are left out.
 */
export function alternatingTurns(messages: readonly AiMessage[], blocks: TurnBlocks): JsonObject[] {
  const turns: Array<{ role: 'user' | 'assistant'; content: JsonObject[] }> = [];
  const push = (role: 'user' | 'assistant', content: JsonObject[]) => {
    if (content.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...content);
    else turns.push({ role, content });
  };
  const text = (content: string) => (content ? [blocks.text(content)] : []);
  for (const message of messages) {
    if (message.role === 'user') push('user', text(message.content));
    else if (message.role === 'assistant') {
      push('assistant', [...text(message.content), ...(message.toolCalls ?? []).map(blocks.toolUse)]);
    } else push('user', [blocks.toolResult(message)]);
  }
  return turns;
}

/**
 * Blocks that carry earlier tool calls and results as plain text, for a request that declares no
 * tools: vendors refuse tool blocks in the history then (Bedrock Converse has no `none` choice, so
 * "no tools now" means no toolConfig at all), yet the model should still see what the tools said.
 */
export function toolTurnsAsText(text: (text: string) => JsonObject): TurnBlocks {
  return {
    text,
    toolUse: (call) =>
      text(
        `[Called the tool ${call.name} with ${typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {})}]`,
      ),
    toolResult: (message) => text(`[Result of the tool ${message.toolName}]\n${message.content}`),
  };
}
