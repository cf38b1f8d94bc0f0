export { type GitLabFamilyOptions, gitLabFamily } from './gitlab-family.js';
export { createGitLabProvider, type GitLabProviderOptions } from './gitlab-scm-provider.js';
export { createGitLabWebhook, type GitLabWebhookOptions } from './gitlab-webhook.js';
