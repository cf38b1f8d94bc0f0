import { forgejoPlugin } from './forgejo-family.js';

export {
  createForgejoFamily,
  FORGEJO_FAMILY,
  FORGEJO_FAMILY_ID,
  FORGEJO_PLUGIN_NAME,
  type ForgejoPluginOptions,
  forgejoPlugin,
} from './forgejo-family.js';
export type { ForgejoOptions } from './forgejo-options.js';
export { forgejoPullRequestUrls } from './forgejo-pull-request-url.js';
export { createForgejoProvider } from './forgejo-scm-provider.js';
export { forgejoWebhook } from './forgejo-webhook.js';

/** For the reference host's `MARGIN_PLUGINS`, which calls a default-exported function with no arguments. */
export default forgejoPlugin;
