/** Small normalisers every SCM adapter needs, kept provider-neutral. */

const HEADS = 'refs/heads/';

/** `refs/heads/feature/x` → `feature/x`; other names unchanged. */
export function branchName(ref: string): string {
  return ref.startsWith(HEADS) ? ref.slice(HEADS.length) : ref;
}

/** `feature/x` → `refs/heads/feature/x`; full refs unchanged. */
export function headsRef(branch: string): string {
  return branch.startsWith('refs/') ? branch : `${HEADS}${branch}`;
}

/** Repository paths without a leading slash, as the port uses them (`src/a.ts`). */
export function relativePath(path: string): string {
  return path.replace(/^\/+/, '');
}

/**
 * Git's own heuristic: a NUL byte in the first 8,000 bytes makes a file binary. Cheap, and it agrees
 * with what the providers show as "binary file" in their diff views.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

export interface DecodedFile {
  text: string;
  sizeBytes: number;
  isBinary: boolean;
}

/** File bytes as the port's `FileContent`: UTF-8 text (BOM dropped), or empty text for binaries. */
export function decodeFile(bytes: Uint8Array): DecodedFile {
  const isBinary = looksBinary(bytes);
  const text = isBinary ? '' : new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
  return { text, sizeBytes: bytes.length, isBinary };
}
