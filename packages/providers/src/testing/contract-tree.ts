import { contractTreeDirectories, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';

/** One node of the contract repository's tree, before a fake puts it into its provider's shape. */
export interface ContractTreeNode {
  path: string;
  kind: 'file' | 'directory' | 'submodule';
  /** Files: the blob id; directories: a tree id; the submodule: the commit it points at. */
  objectId: string;
  sizeBytes?: number | undefined;
}

const s = SCM_CONTRACT_SCENARIO;

/**
 * The contract repository at `pullRequest.headSha` as a provider stores it (directories, files and
 * one submodule), sorted by path so paged answers are stable. `undefined` for any other commit.
 */
export function contractTreeAt(commitSha: string): ContractTreeNode[] | undefined {
  if (commitSha !== s.pullRequest.headSha) return undefined;
  const directories = contractTreeDirectories().map((path, i) => ({
    path,
    kind: 'directory' as const,
    objectId: (i + 1).toString(16).padStart(40, 'd'),
  }));
  const files = s.tree.map((f) => ({
    path: f.path,
    kind: 'file' as const,
    objectId: f.blobId,
    sizeBytes: f.sizeBytes,
  }));
  const submodule = { path: s.submodule, kind: 'submodule' as const, objectId: 'e'.repeat(40) };
  return [...directories, ...files, submodule].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The nodes under `prefix` (normalized, `''` for all), or `undefined` when the prefix names no
 * directory, which providers answer with a 404.
 */
export function contractTreeUnder(nodes: ContractTreeNode[], prefix: string): ContractTreeNode[] | undefined {
  if (prefix === '') return nodes;
  if (!nodes.some((n) => n.kind === 'directory' && n.path === prefix)) return undefined;
  return nodes.filter((n) => n.path.startsWith(`${prefix}/`));
}
