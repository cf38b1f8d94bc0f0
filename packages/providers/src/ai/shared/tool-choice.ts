import { type AiChatRequest, type AiResponseFormat, type AiToolDefinition, MarginError } from '@margin/core/spec';
import { safeName } from './wire-values.js';

/** What the model may or must do with the tools sent; each wire only spells it. */
export type ToolMode = { type: 'auto' } | { type: 'required' } | { type: 'none' } | { type: 'tool'; name: string };

export interface ToolPlan {
  /** The tools to declare, in order; never empty. */
  tools: AiToolDefinition[];
  mode: ToolMode;
}

/**
 * The tools of a request and the choice among them, checked once for every wire: `auto` when
 * none is given, a named tool must be one of the tools, and `required` or a named tool without
 * tools is refused (the vendors would answer 400, less clearly). Undefined when no tools are sent.
 *
 * `answerTool` is the synthetic tool whose input is the structured answer, for wires that get
 * JSON from a model without a JSON mode by forcing a tool call (Anthropic, Bedrock). It joins the
 * caller's tools, and the choice becomes: the caller's named tool if one is named; otherwise
 * "some tool" when the caller has tools and allows them (the model may still read a file first,
 * but cannot answer in free text); otherwise the answer tool itself.
 */
export function toolPlanOf(request: AiChatRequest, answerTool?: AiToolDefinition): ToolPlan | undefined {
  const tools = [...(request.tools ?? [])];
  const choice = request.toolChoice ?? 'auto';
  if (typeof choice === 'object' && !tools.some((tool) => tool.name === choice.name)) {
    throw MarginError.validation(
      `toolChoice names the tool ${choice.name}, which is not among the request's tools (${tools.map((t) => t.name).join(', ') || 'none'}).`,
      [{ path: 'toolChoice', message: 'Name one of the tools sent.' }],
    );
  }
  if (choice === 'required' && tools.length === 0 && !answerTool) {
    throw MarginError.validation('toolChoice required needs at least one tool.', [
      { path: 'toolChoice', message: 'Send tools, or leave toolChoice out.' },
    ]);
  }
  if (answerTool) {
    const callerTools = tools.length;
    tools.push(answerTool);
    if (typeof choice === 'object') return { tools, mode: { type: 'tool', name: choice.name } };
    if (choice !== 'none' && callerTools > 0) return { tools, mode: { type: 'required' } };
    return { tools, mode: { type: 'tool', name: answerTool.name } };
  }
  if (tools.length === 0) return undefined;
  return { tools, mode: typeof choice === 'object' ? { type: 'tool', name: choice.name } : { type: choice } };
}

/** One wire's spelling of each tool mode. */
export interface ToolModeSpelling<T> {
  auto: T;
  required: T;
  none: T;
  tool(name: string): T;
}

export function spellToolMode<T>(mode: ToolMode, spelling: ToolModeSpelling<T>): T {
  return mode.type === 'tool' ? spelling.tool(mode.name) : spelling[mode.type];
}

/** The synthetic tool whose input is the structured answer (`emit_review_findings`). */
export function answerToolFor(format: AiResponseFormat): AiToolDefinition {
  return {
    name: safeName(`emit_${format.name}`),
    description: 'Give the complete answer by calling this tool; its input is the answer.',
    parameters: format.schema,
  };
}
