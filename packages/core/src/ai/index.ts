export * from './ai-model-v1.js';
