export { ANTHROPIC_VERSION, createAnthropicKind } from './anthropic-kind.js';
