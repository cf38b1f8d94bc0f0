import type { PullRequestRef } from '@margin/core/spec';
import { BoundedCache, paginate } from '../../utils/index.js';
import { type AzureDevOpsConnection, getJson, PAGE, pullRequestUrl, type Signal } from './azure-devops-connection.js';
import { type AdoChangeEntry, type AdoIterationChanges, toChangedFile } from './azure-devops-wire.js';

/**
 * path → changeTrackingId per (repository, pull request, iteration). Inline threads pin to it, and a
 * review lists the files before it comments, so the listing remembers them and the lookup is usually
 * free. Shared by the diffs part (which fills it) and the threads part (which reads it).
 */
export interface ChangeTrackingIds {
  /** The file's change tracking id in the iteration; `undefined` when the path is not in its diff. */
  of(ref: PullRequestRef, iterationId: number, path: string, signal: Signal): Promise<number | undefined>;
  /** Keeps a complete listing of the iteration's paths. */
  remember(ref: PullRequestRef, iterationId: number, known: Map<string, number>): void;
}

export function changeTrackingIds(ado: AzureDevOpsConnection): ChangeTrackingIds {
  const byIteration = new BoundedCache<string, Map<string, number>>(32);
  const key = (ref: PullRequestRef, iterationId: number) => `${ref.repositoryId}#${ref.pullRequestId}@${iterationId}`;
  return {
    async of(ref, iterationId, path, signal) {
      // A complete listing is cached once; a path missing from it is simply not in the diff.
      let known = byIteration.get(key(ref, iterationId));
      if (!known) {
        known = new Map();
        for await (const entry of changeEntries(ado, ref, iterationId, signal)) {
          const file = toChangedFile(entry);
          if (file) known.set(file.path, entry.changeTrackingId);
        }
        byIteration.set(key(ref, iterationId), known);
      }
      return known.get(path);
    },
    remember(ref, iterationId, known) {
      byIteration.set(key(ref, iterationId), known);
    },
  };
}

/** Iteration changes, page by page (`$top`/`$skip`, continued while `nextTop` says so). */
export function changeEntries(
  ado: AzureDevOpsConnection,
  ref: PullRequestRef,
  iterationId: number,
  signal: Signal,
): AsyncGenerator<AdoChangeEntry> {
  return paginate<AdoChangeEntry, number>(0, async (skip) => {
    const page = await getJson<AdoIterationChanges>(
      ado,
      `${pullRequestUrl(ado, ref)}/iterations/${iterationId}/changes`,
      signal,
      { $top: PAGE, $skip: skip ?? 0 },
    );
    const more = (page.nextTop ?? 0) > 0 && page.changeEntries.length > 0;
    return { items: page.changeEntries, next: more ? page.nextSkip : undefined };
  });
}
