import type { ChangedFile, FileContent, PullRequestRef, Revision } from '@margin/core';
import { computeUnifiedDiff, withFileHeaders } from '../shared/index.js';
import { type GitLabClient, PAGE_SIZE, seg } from './gitlab-client.js';
import type { GlDiff, GlMergeRequest } from './gitlab-wire.js';

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

/** Merge requests remembered per provider instance; a review works on one at a time. */
const REMEMBERED = 8;

export type ReadContent = (path: string, commitSha: string) => Promise<FileContent | undefined>;

export class GitLabDiffs {
  private readonly indexes = new Map<string, DiffIndex | 'stale'>();

  constructor(private readonly client: GitLabClient) {}

  /**
   * Every file of the revision, page by page. For the merge request's current head that is `/diffs`;
   * an older revision has no paged list, so it is GitLab's compare of its merge base and head.
   */
  async *changedDiffs(ref: PullRequestRef, revision: Revision): AsyncGenerator<GlDiff> {
    const index = await this.indexFor(ref, revision);
    if (!index) {
      const compare = await this.client.get<{ diffs?: GlDiff[] }>(
        `/projects/${seg(ref.repositoryId)}/repository/compare`,
        {
          from: revision.mergeBaseSha ?? revision.baseSha,
          to: revision.headSha,
          straight: true,
        },
      );
      yield* compare.diffs ?? [];
      return;
    }
    yield* this.walk(ref, index, 1);
  }

  /** GitLab's entry for one file of the revision; `undefined` when GitLab cannot give it. */
  async find(ref: PullRequestRef, revision: Revision, path: string): Promise<GlDiff | undefined> {
    const index = await this.indexFor(ref, revision);
    if (!index) return undefined;
    const position = index.positions.get(path);
    if (position !== undefined) {
      const [entry] = await this.client.get<GlDiff[]>(`${mrPath(ref)}/diffs`, { page: position + 1, per_page: 1 });
      if (entry?.new_path === path) return entry;
    }
    if (index.complete) return undefined;
    for await (const entry of this.walk(ref, index, index.pagesWalked + 1)) {
      if (entry.new_path === path) return entry;
    }
    return undefined;
  }

  /**
   * A unified diff with `---`/`+++` headers: GitLab's hunks when it has them, otherwise computed here
   * from both versions (GitLab leaves `diff` empty for too-large and collapsed files).
   */
  async unifiedDiff(
    file: ChangedFile,
    revision: Revision,
    entry: GlDiff | undefined,
    readContent: ReadContent,
  ): Promise<string> {
    if (entry && !entry.too_large && !entry.collapsed) {
      if (!entry.diff) return '';
      return withFileHeaders(
        entry.diff,
        entry.new_file ? undefined : entry.old_path,
        entry.deleted_file ? undefined : entry.new_path,
      );
    }
    const oldPath = entry?.old_path ?? file.previousPath ?? file.path;
    const added = entry?.new_file ?? file.changeType === 'added';
    const deleted = entry?.deleted_file ?? file.changeType === 'deleted';
    const [before, after] = await Promise.all([
      added ? undefined : readContent(oldPath, revision.mergeBaseSha ?? revision.baseSha),
      deleted ? undefined : readContent(file.path, revision.headSha),
    ]);
    return computeUnifiedDiff({
      oldPath: before ? oldPath : undefined,
      newPath: after ? file.path : undefined,
      oldText: before?.text ?? '',
      newText: after?.text ?? '',
      isBinary: before?.isBinary || after?.isBinary,
    });
  }

  /**
   * The index for the revision, or `undefined` when the revision is not the merge request's head.
   * Both verdicts are remembered, so asking about an older revision file by file costs one call.
   */
  private async indexFor(ref: PullRequestRef, revision: Revision): Promise<DiffIndex | undefined> {
    const key = `${ref.repositoryId}!${ref.pullRequestId}@${revision.headSha}`;
    const known = this.indexes.get(key);
    if (known) return known === 'stale' ? undefined : known;
    const mr = await this.client.get<GlMergeRequest>(mrPath(ref));
    const head = mr.diff_refs?.head_sha ?? mr.sha;
    const index: DiffIndex | 'stale' =
      head === revision.headSha ? { headSha: head, positions: new Map(), pagesWalked: 0, complete: false } : 'stale';
    this.indexes.set(key, index);
    for (const old of this.indexes.keys()) {
      if (this.indexes.size <= REMEMBERED) break;
      this.indexes.delete(old);
    }
    return index === 'stale' ? undefined : index;
  }

  private async *walk(ref: PullRequestRef, index: DiffIndex, firstPage: number): AsyncGenerator<GlDiff> {
    let page = firstPage;
    for await (const entries of this.client.pages<GlDiff>(`${mrPath(ref)}/diffs`, {}, firstPage)) {
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

export const mrPath = (ref: PullRequestRef): string =>
  `/projects/${seg(ref.repositoryId)}/merge_requests/${seg(ref.pullRequestId)}`;
