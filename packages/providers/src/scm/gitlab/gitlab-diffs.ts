import type {
  ChangedFile,
  FileContent,
  FileDiff,
  ListingTruncation,
  PullRequestRef,
  Revision,
} from '@margin/core/spec';
import { BoundedCache, encodeSegment } from '../../utils/index.js';
import { diffOfVersions, withFileHeaders } from '../shared/index.js';
import { type GitLabClient, PAGE_SIZE } from './gitlab-client.js';
import type { GlCompare, GlDiff, GlMergeRequest, GlVersion } from './gitlab-wire.js';

/**
 * Where each file sits in a merge request's `/diffs` list for one head. GitLab has no per-file diff
 * call, so after one walk a file's diff is fetched alone as `?per_page=1&page=<position + 1>`
 * instead of walking the pages again for every file.
 *
 * `/diffs` always describes the newest version and names no head, so a push landing while a review of
 * the previous head is running makes later calls see the new version; such a review is superseded by
 * the new head's anyway.
 */
interface DiffIndex {
  headSha: string;
  positions: Map<string, number>;
  /** Pages of `PAGE_SIZE` walked so far, in order from the first. */
  pagesWalked: number;
  complete: boolean;
}

/**
 * Which GitLab listing describes a revision: the merge request's own `/diffs` when the revision is
 * its current head over its current merge base, otherwise the comparison of two commits (an older
 * version, or an interdiff between two heads), which never comes from the merge request's diff.
 */
type DiffSource = { kind: 'mergeRequest'; index: DiffIndex } | { kind: 'compare'; from: string; to: string };

/** Verdicts and comparisons remembered per provider instance; a review works on one at a time. */
const REMEMBERED = 8;
/** Comparisons hold every file's diff; a few are enough for one review's interdiff. */
const REMEMBERED_COMPARISONS = 4;

/** GitLab's default diff limits (`diff_max_files`, `diff_max_lines`), named when a version overflowed. */
const OVERFLOW_REASON =
  'GitLab stored only part of this merge request version’s diff (by default it keeps at most 1,000 files or 50,000 lines); the files past its limit are not listed.';

export type ReadContent = (path: string, commitSha: string) => Promise<FileContent | undefined>;

export class GitLabDiffs {
  private readonly sources = new Map<string, DiffIndex | 'compare'>();
  private readonly comparisons = new BoundedCache<string, Promise<GlCompare>>(REMEMBERED_COMPARISONS);

  constructor(private readonly client: GitLabClient) {}

  /**
   * Every file of the revision, page by page. A cap GitLab put on the listing (an overflowed version,
   * a comparison that timed out) is reported after the last file.
   */
  async *changedDiffs(
    ref: PullRequestRef,
    revision: Revision,
    signal: AbortSignal | undefined,
    onTruncated: ((truncation: ListingTruncation) => void) | undefined,
  ): AsyncGenerator<GlDiff> {
    const source = await this.sourceFor(ref, revision, signal);
    let count = 0;
    if (source.kind === 'compare') {
      const compare = await this.compare(ref.repositoryId, source.from, source.to, signal);
      for (const diff of compare.diffs ?? []) {
        count += 1;
        yield diff;
      }
      if (compare.compare_timeout) onTruncated?.(compareTruncation(count));
      return;
    }
    for await (const diff of this.walk(ref, source.index, 1, signal)) {
      count += 1;
      yield diff;
    }
    if (onTruncated && (await this.overflowed(ref, revision, signal))) {
      onTruncated({ limit: count, reason: OVERFLOW_REASON });
    }
  }

  /** GitLab's entry for one file of the revision; `undefined` when GitLab lists no such file. */
  async find(
    ref: PullRequestRef,
    revision: Revision,
    path: string,
    signal: AbortSignal | undefined,
  ): Promise<GlDiff | undefined> {
    const source = await this.sourceFor(ref, revision, signal);
    if (source.kind === 'compare') {
      const compare = await this.compare(ref.repositoryId, source.from, source.to, signal);
      return (compare.diffs ?? []).find((d) => d.new_path === path || (d.deleted_file && d.old_path === path));
    }
    const index = source.index;
    const position = index.positions.get(path);
    if (position !== undefined) {
      const [entry] = await this.client.get<GlDiff[]>(
        `${mrPath(ref)}/diffs`,
        { page: position + 1, per_page: 1 },
        signal,
      );
      if (entry?.new_path === path) return entry;
    }
    if (index.complete) return undefined;
    for await (const entry of this.walk(ref, index, index.pagesWalked + 1, signal)) {
      if (entry.new_path === path) return entry;
    }
    return undefined;
  }

  /**
   * Two commits compared directly (`straight=true`: the files that differ between them, not what
   * `to` added since their merge base). Commits never change, so an answer is kept and shared by
   * every file of an interdiff.
   */
  compare(repositoryId: string, from: string, to: string, signal: AbortSignal | undefined): Promise<GlCompare> {
    const key = `${repositoryId}:${from}..${to}`;
    const known = this.comparisons.get(key);
    if (known) return known;
    const pending = this.client.get<GlCompare>(
      `/projects/${encodeSegment(repositoryId)}/repository/compare`,
      { from, to, straight: true },
      signal,
    );
    this.comparisons.set(key, pending);
    pending.catch(() => this.comparisons.delete(key));
    return pending;
  }

  /**
   * The port's `FileDiff`: GitLab's hunks under git-style headers when it has them, git's one
   * `Binary files … differ` line for a binary, headers alone for a pure rename, else computed here
   * from both versions. GitLab leaves `diff` empty for collapsed files (still commentable once
   * expanded) and for `too_large` ones, which it never shows: those take no inline comment, so they
   * are marked `truncated`.
   */
  async unifiedDiff(
    file: ChangedFile,
    revision: Revision,
    entry: GlDiff | undefined,
    readContent: ReadContent,
  ): Promise<FileDiff> {
    const oldPath = entry?.new_file ? undefined : (entry?.old_path ?? file.previousPath ?? file.path);
    const newPath = entry?.deleted_file ? undefined : (entry?.new_path ?? file.path);
    if (entry && !entry.too_large && !entry.collapsed) {
      if (/^Binary files /.test(entry.diff)) return { text: ensureNewline(entry.diff), commentable: 'diffLines' };
      return { text: withFileHeaders(entry.diff, oldPath, newPath), commentable: 'diffLines' };
    }
    const added = entry?.new_file ?? file.changeType === 'added';
    const deleted = entry?.deleted_file ?? file.changeType === 'deleted';
    const from = oldPath ?? file.previousPath ?? file.path;
    const [before, after] = await Promise.all([
      added ? undefined : readContent(from, revision.mergeBaseSha ?? revision.baseSha),
      deleted ? undefined : readContent(file.path, revision.headSha),
    ]);
    const text = await diffOfVersions(from, file.path, before, after);
    return entry?.too_large ? { text, commentable: 'diffLines', truncated: true } : { text, commentable: 'diffLines' };
  }

  /**
   * The source for the revision. The verdict is remembered per head and merge base, so asking about
   * an older revision file by file costs one merge request read.
   */
  private async sourceFor(
    ref: PullRequestRef,
    revision: Revision,
    signal: AbortSignal | undefined,
  ): Promise<DiffSource> {
    const from = revision.mergeBaseSha ?? revision.baseSha;
    const key = `${ref.repositoryId}!${ref.pullRequestId}@${revision.headSha}<${revision.mergeBaseSha ?? ''}`;
    let known = this.sources.get(key);
    if (!known) {
      const mr = await this.client.get<GlMergeRequest>(mrPath(ref), undefined, signal);
      const head = mr.diff_refs?.head_sha ?? mr.sha;
      const base = mr.diff_refs?.base_sha ?? undefined;
      const isCurrent =
        head === revision.headSha && (revision.mergeBaseSha === undefined || revision.mergeBaseSha === base);
      known = isCurrent
        ? { headSha: revision.headSha, positions: new Map(), pagesWalked: 0, complete: false }
        : 'compare';
      this.sources.set(key, known);
      for (const old of this.sources.keys()) {
        if (this.sources.size <= REMEMBERED) break;
        this.sources.delete(old);
      }
    }
    return known === 'compare'
      ? { kind: 'compare', from, to: revision.headSha }
      : { kind: 'mergeRequest', index: known };
  }

  /** Whether the version of the revision is one GitLab cut at its diff limits. */
  private async overflowed(ref: PullRequestRef, revision: Revision, signal: AbortSignal | undefined): Promise<boolean> {
    const versions = await this.client.get<GlVersion[]>(`${mrPath(ref)}/versions`, { per_page: 20, page: 1 }, signal);
    const version =
      versions.find((v) => String(v.id) === revision.revisionId) ??
      versions.find((v) => v.head_commit_sha === revision.headSha);
    if (!version) return false;
    const state = version.state ?? '';
    return state.startsWith('overflow') || state === 'timeout' || (version.real_size ?? '').endsWith('+');
  }

  private async *walk(
    ref: PullRequestRef,
    index: DiffIndex,
    firstPage: number,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<GlDiff> {
    let page = firstPage;
    for await (const entries of this.client.pages<GlDiff>(`${mrPath(ref)}/diffs`, {}, firstPage, signal)) {
      entries.forEach((entry, i) => {
        index.positions.set(entry.new_path, (page - 1) * PAGE_SIZE + i);
      });
      index.pagesWalked = Math.max(index.pagesWalked, page);
      if (entries.length < PAGE_SIZE) index.complete = true;
      page += 1;
      yield* entries;
    }
    index.complete = true;
  }
}

export function compareTruncation(listed: number): ListingTruncation {
  return {
    limit: listed,
    reason: `GitLab ran out of time comparing the two commits and listed ${listed} changed files; others may be missing.`,
  };
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

export const mrPath = (ref: PullRequestRef): string =>
  `/projects/${encodeSegment(ref.repositoryId)}/merge_requests/${encodeSegment(ref.pullRequestId)}`;
