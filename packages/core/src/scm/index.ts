export * from './scm-provider-v1.js';
