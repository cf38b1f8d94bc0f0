export { type BitbucketCredentialKind, bitbucketCredential } from './bitbucket-credentials.js';
export { type BitbucketFamilyOptions, bitbucketFamily } from './bitbucket-family.js';
export { type BitbucketProviderOptions, createBitbucketProvider } from './bitbucket-scm-provider.js';
export { createBitbucketWebhook } from './bitbucket-webhook.js';
