import type { BranchEmbeddings, IndexScope, KnowledgeIndexRepository } from './index-records.js';

/** Branches whose vectors stay loaded; the least recently searched goes first. */
const MAX_BRANCHES = 16;

/**
 * Semantic search runs in process over a branch's vectors (see nearest-chunks.ts). Loading them costs a read of the whole branch, so they are kept per
 * (source, branch, version) and reloaded only when a refresh wrote new ones (`version` changes).
 */
export class VectorCache {
  private readonly entries = new Map<string, { version: string; vectors: Promise<BranchEmbeddings> }>();

  async get(index: KnowledgeIndexRepository, scope: IndexScope, version: string): Promise<BranchEmbeddings> {
    const key = `${scope.sourceId}\0${scope.branchName}`;
    const found = this.entries.get(key);
    this.entries.delete(key);
    if (found && found.version === version) {
      this.entries.set(key, found);
      return found.vectors;
    }
    const vectors = index.branchEmbeddings(scope);
    this.entries.set(key, { version, vectors });
    vectors.catch(() => this.entries.delete(key));
    while (this.entries.size > MAX_BRANCHES) this.entries.delete(this.entries.keys().next().value as string);
    return vectors;
  }
}
