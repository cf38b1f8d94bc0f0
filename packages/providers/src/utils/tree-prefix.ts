/**
 * The `pathPrefix` of a tree listing, as adapters hand it to their providers: callers may write
 * `docs`, `/docs` or `docs/`, while a provider wants one spelling and a prefix must match whole path
 * segments (`docs` holds `docs/a.md`, never `docs-site/a.md`).
 */

/** `'/docs/'` → `'docs'`; no prefix (or only slashes) → `''`, the whole repository. */
export function normalizeTreePrefix(prefix: string | undefined): string {
  return (prefix ?? '').replace(/^\/+|\/+$/g, '');
}

/** Whether a repository-relative path lies under a normalized prefix (`''` holds everything). */
export function isUnderTreePrefix(path: string, normalizedPrefix: string): boolean {
  return normalizedPrefix === '' || path.startsWith(`${normalizedPrefix}/`);
}
