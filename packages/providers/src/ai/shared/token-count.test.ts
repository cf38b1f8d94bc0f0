import { describe, expect, it } from 'vitest';
import { estimateTokens, openAiEncodingOf, tokenCounterFor } from './token-count.js';

describe('openAiEncodingOf: the tokenizer chosen from the remote model id', () => {
  it.each([
    'gpt-4o',
    'gpt-4o-mini-2024-07-18',
    'gpt-4.1',
    'gpt-4.1-nano',
    'gpt-5',
    'gpt-5.1-codex',
    'GPT-5-mini',
    'o1',
    'o3-mini',
    'o4-mini-deep-research',
    'chatgpt-4o-latest',
    'openai/gpt-4o',
    'azure/gpt-4.1',
    'ft:gpt-4o-mini-2024-07-18:acme::A1b2C3',
    'gpt-oss:20b',
  ])('%s → o200k_base', (id) => {
    expect(openAiEncodingOf(id)).toBe('o200k_base');
  });

  it.each([
    'gpt-4',
    'gpt-4-turbo',
    'gpt-4-0613',
    'gpt-3.5-turbo',
    'gpt-35-turbo',
    'text-embedding-3-large',
    'text-embedding-ada-002',
  ])('%s → cl100k_base', (id) => {
    expect(openAiEncodingOf(id)).toBe('cl100k_base');
  });

  it.each([
    'claude-sonnet-4-5',
    'gemini-2.5-pro',
    'qwen2.5-coder:32b',
    'my-review-deployment',
    'gpt-4x',
    'o10-preview',
    'nomic-embed-text',
    'anthropic/gpt-4o-lookalike', // another vendor's prefix is not looked through
  ])('%s → unknown', (id) => {
    expect(openAiEncodingOf(id)).toBeUndefined();
  });
});

describe('tokenCounterFor', () => {
  it('counts exactly with the model’s tokenizer', () => {
    expect(tokenCounterFor('gpt-4.1')('const answer = await model.chat(request);')).toEqual({ tokens: 8, exact: true });
    expect(tokenCounterFor('gpt-3.5-turbo')('hello world')).toEqual({ tokens: 2, exact: true });
  });

  it('counts special-token text in a diff as plain text instead of failing', () => {
    expect(tokenCounterFor('gpt-4o')('<|endoftext|>')).toEqual({ tokens: 7, exact: true });
  });

  it('estimates characters ÷ 3.5, rounded up, for every other model', () => {
    expect(tokenCounterFor('claude-sonnet-4-5')('abcdefgh')).toEqual({ tokens: 3, exact: false });
    expect(estimateTokens('')).toEqual({ tokens: 0, exact: false });
    expect(estimateTokens('x'.repeat(7000))).toEqual({ tokens: 2000, exact: false });
  });
});
