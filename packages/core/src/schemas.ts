/**
 * `@margin/core/schemas`: the zod schemas that are the API's models (requests and views), for hosts
 * that build their own HTTP layer or API description, and the building blocks they are made of.
 * Each capability keeps its models in its own `schemas.ts`; all are exported here.
 */
export * from './ai/schemas.js';
export * from './audit/schemas.js';
export * from './conversations/schemas.js';
export * from './identity/schemas.js';
export * from './kernel/index.js';
export * from './knowledge/schemas.js';
export * from './licensing/schemas.js';
export * from './reviewing/schemas.js';
export * from './scm/schemas.js';
export * from './spend/schemas.js';
export * from './tenancy/schemas.js';
export * from './triggers/schemas.js';
