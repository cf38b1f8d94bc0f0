/** URL building every adapter needs: joining a base and a path, and encoding path segments. */

/** The URL without its trailing slashes: `https://h/api/v4/` → `https://h/api/v4`. */
export function trimTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * `base + path` with exactly one slash between the base's path and each segment; the base's query
 * and fragment are dropped. `joinUrl('https://h/openai/v1/', '/models')` → `https://h/openai/v1/models`.
 * Segments are not encoded: pass ids through `encodeSegment` first.
 */
export function joinUrl(base: URL | string, ...segments: string[]): string {
  const root = trimTrailingSlashes(String(base).replace(/[?#].*$/, ''));
  return [root, ...segments.map((s) => s.replace(/^\/+|\/+$/g, ''))].join('/');
}

/** One URL path segment: ids, GitLab full paths (`acme/app` → `acme%2Fapp`) and Bitbucket's braced UUIDs alike. */
export function encodeSegment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/** A repository path (`/src/a b.ts`) for use inside a URL path: each segment encoded, no leading slash. */
export function encodePathSegments(path: string): string {
  return path.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
}
