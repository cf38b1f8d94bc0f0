import type { FileContent } from '../../scm-provider/index.js';
import { revealInvisible } from '../hostile/invisible-unicode.js';
import type { SecretRedactor } from '../hostile/redact-secrets.js';
import type { ReviewSource } from '../pipeline/review-source.js';

/** A file as the tool shows it: its lines redacted and with invisible characters made visible. */
export type HeadFile =
  | { kind: 'text'; lines: string[] }
  | { kind: 'notFound' }
  | { kind: 'binary' }
  | { kind: 'tooLarge'; chars: number };

/** Files of one job kept for repeated reads: most are read once or twice by neighbouring chunks. */
export const MAX_CACHED_FILES = 32;
/** Characters of cached file text per job, so a job reading huge files stays bounded in memory. */
export const MAX_CACHED_CHARS = 4_000_000;
/** A file bigger than this is not read at all (its redaction alone would cost more than the review). */
export const MAX_FILE_CHARS = 1_000_000;

/**
 * The head revision's files as the review's read-only tools see them, read through the review
 * source (the job's own pull request and revision, nothing else) and cached per job: concurrent
 * and repeated reads of one file cost one provider call. Content passes the job's secret redactor
 * (so a value keeps its marker number across diff and tool output) and invisible-character
 * handling once, when it is read. Failed reads are not cached, so a later call may try again.
 */
export class HeadFiles {
  private readonly cache = new Map<string, Promise<HeadFile>>();
  private readonly sizes = new Map<string, number>();
  private cachedChars = 0;
  /** Provider calls made, for tests and the protocol. */
  reads = 0;

  constructor(
    private readonly source: Pick<ReviewSource, 'getFileContent'>,
    private readonly headSha: string,
    private readonly redactor: SecretRedactor,
  ) {}

  /** The file at the head revision; `cached` says whether this call reused an earlier read. */
  async get(path: string, signal: AbortSignal): Promise<{ file: HeadFile; cached: boolean }> {
    // Paths are case-sensitive in git, so the key is the path as normalised, not lower-cased.
    const key = path;
    const hit = this.cache.get(key);
    if (hit) return { file: await hit, cached: true };
    const pending = this.load(path, signal);
    this.cache.set(key, pending);
    try {
      const file = await pending;
      this.remember(key, file);
      return { file, cached: false };
    } catch (error) {
      this.cache.delete(key);
      throw error;
    }
  }

  private async load(path: string, signal: AbortSignal): Promise<HeadFile> {
    this.reads++;
    const content: FileContent | undefined = await this.source.getFileContent(path, this.headSha, { signal });
    if (!content) return { kind: 'notFound' };
    if (content.isBinary) return { kind: 'binary' };
    if (content.text.length > MAX_FILE_CHARS) return { kind: 'tooLarge', chars: content.text.length };
    const { text } = this.redactor.redactText(content.text);
    const lines = revealInvisible(text).split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    return { kind: 'text', lines };
  }

  /** Keeps the cache within its bounds, forgetting the oldest reads first. */
  private remember(key: string, file: HeadFile): void {
    // Evicted while it was being read (other reads filled the cache): nothing to account for.
    if (!this.cache.has(key) || this.sizes.has(key)) return;
    const chars = file.kind === 'text' ? file.lines.reduce((n, l) => n + l.length + 1, 0) : 0;
    this.sizes.set(key, chars);
    this.cachedChars += chars;
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= MAX_CACHED_FILES && this.cachedChars <= MAX_CACHED_CHARS) break;
      if (oldest === key) continue;
      this.cache.delete(oldest);
      this.cachedChars -= this.sizes.get(oldest) ?? 0;
      this.sizes.delete(oldest);
    }
  }
}
