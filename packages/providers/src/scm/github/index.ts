export { gitHubFamily } from './github-family.js';
export { type GitHubEndpoints, type GitHubOptions, gitHubEndpoints } from './github-options.js';
export { createGitHubProvider } from './github-scm-provider.js';
export { gitHubWebhook } from './github-webhook.js';
