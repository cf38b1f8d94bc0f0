export { createForgejoFamily, FORGEJO_FAMILY, FORGEJO_FAMILY_ID } from './forgejo-family.js';
export type { ForgejoOptions } from './forgejo-options.js';
export { createForgejoProvider } from './forgejo-scm-provider.js';
export { forgejoWebhook } from './forgejo-webhook.js';
