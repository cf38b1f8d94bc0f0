import { describe, expect, it } from 'vitest';
import { saysContextLengthExceeded } from './context-length.js';

describe('saysContextLengthExceeded', () => {
  it.each([
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens.",
    "This endpoint's maximum context length is 131072 tokens. However, you requested about 140000 tokens.",
    'Your input exceeds the context window of this model. Please adjust your input and try again.',
    'litellm.ContextWindowExceededError: litellm.BadRequestError: AnthropicError - prompt too long',
    'prompt is too long: 208656 tokens > 200000 maximum',
    'input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again',
    'The model returned the following errors: Input is too long for requested model.',
    'Too many input tokens. Max input tokens: 8192, request input token count: 9001',
    'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
    'The input token count exceeds the maximum number of tokens allowed (1048576).',
    'the input length exceeds the context length',
    'The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input',
    'Trying to keep the first 15857 tokens when context the overflows.',
    'the request exceeds the available context size, try increasing it',
    'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 1000 `max_new_tokens`',
  ])('recognises %s', (message) => {
    expect(saysContextLengthExceeded(message)).toBe(true);
  });

  it.each([
    undefined,
    'Rate limit reached for gpt-5.1 in organization org-abc on tokens per min (TPM): Limit 30000, Used 29800.',
    "Invalid 'max_tokens': integer below minimum value.",
    // Words a diff under review may contain, without the vendor's exact phrasing.
    '+ // fail when the context length is exceeded',
    '+ throw new Error("maximum context length reached")',
    'This request would exceed the rate limit for your organization of 50,000 input tokens per minute.',
  ])('leaves %s alone', (message) => {
    expect(saysContextLengthExceeded(message)).toBe(false);
  });
});
