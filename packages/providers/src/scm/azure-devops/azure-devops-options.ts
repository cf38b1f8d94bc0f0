/** What a host (or a test) may set on the Azure DevOps family; adapters never read the environment. */
export interface AzureDevOpsOptions {
  fetch?: typeof fetch | undefined;
  /** Where Entra ID tokens come from. Default `https://login.microsoftonline.com`. */
  entraAuthorityUrl?: string | undefined;
  /**
   * `api-version` for every versioned call. Default `7.1` on Azure DevOps Services
   * (`dev.azure.com`, `*.visualstudio.com`) and `6.0` elsewhere, which Server 2020 and 2022 accept.
   */
  apiVersion?: string | undefined;
  /**
   * Base of the identity service used by `searchUsers`. Default: `https://vssps.dev.azure.com/<org>`
   * (or `https://<org>.vssps.visualstudio.com`) on Services; the collection URL itself on Server.
   */
  identityBaseUrl?: string | undefined;
  /** Clock for token expiry. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Transport tuning (tests shorten the backoff). */
  retries?: number | undefined;
  backoffBaseMs?: number | undefined;
  maxRetryDelayMs?: number | undefined;
  timeoutMs?: number | undefined;
}
