/** The source-control provider port: what an adapter implements and the records it answers with. */
export * from './scm-provider-v1.js';
