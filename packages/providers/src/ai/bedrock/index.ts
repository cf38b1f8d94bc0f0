export { type BedrockAuth, bedrockAuthOf } from './bedrock-connection.js';
export { createBedrockKind } from './bedrock-kind.js';
