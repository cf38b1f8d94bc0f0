import type { ErrorVerdict } from '../../utils/index.js';

/**
 * How vendors say the input does not fit the model's context window. Each phrase is specific
 * (numbers or exact wording) because some servers echo request content in their errors, and a
 * diff under review may well mention "context length".
 */
const PHRASES: readonly RegExp[] = [
  /maximum context length is \d+/i, // OpenAI, Azure, vLLM, OpenRouter: "This model's maximum context length is 128000 tokens"
  /input exceeds the context window/i, // OpenAI Responses API
  /\bContextWindowExceededError\b/, // LiteLLM, whatever the backend
  /prompt is too long: \d+ tokens > \d+ maximum/i, // Anthropic (also Claude through Bedrock)
  /input length and `?max_tokens`? exceed context limit/i, // Anthropic, input + max_tokens
  /input is too long for requested model/i, // Bedrock
  /too many input tokens/i, // Bedrock
  /input token count( \(\d+\))? exceeds the maximum number of tokens/i, // Gemini, Vertex
  /input length exceeds the (maximum )?context length/i, // Ollama
  /tokens to keep from the initial prompt is greater than the context length/i, // LM Studio
  /trying to keep the first \d+ tokens when context the overflows/i, // LM Studio (sic)
  /request exceeds the available context size/i, // llama.cpp server
  /`inputs` tokens \+ `max_new_tokens` must be <= \d+/i, // Hugging Face TGI
];

/** Never retried: the same input fails the same way; the caller splits it and asks again. */
export const CONTEXT_LENGTH_EXCEEDED: ErrorVerdict = { failure: 'contextLengthExceeded', retry: false };

/** Whether a vendor's error message says the input was longer than the model's context window. */
export function saysContextLengthExceeded(message: string | undefined): boolean {
  return message !== undefined && PHRASES.some((phrase) => phrase.test(message));
}

/**
 * The verdict for an error answer whose message says the input was too long, whatever vendor
 * wrote it; undefined otherwise. Only the message decides: a 400 alone is usually something else.
 */
export function contextLengthVerdict(message: string | undefined): ErrorVerdict | undefined {
  return saysContextLengthExceeded(message) ? CONTEXT_LENGTH_EXCEEDED : undefined;
}
