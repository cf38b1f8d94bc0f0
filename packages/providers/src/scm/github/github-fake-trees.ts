import { createHash } from 'node:crypto';
import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { contractTreeAt } from '../../testing/contract-tree.js';
import { type GitHubFakeContext, notFound, R } from './github-fake-context.js';

/** A commit of a repository the fake serves as a whole tree: every file's text by path. */
export interface FakeRepositoryCommit {
  commitSha: string;
  /** The branch whose tip this commit becomes. */
  branch: string;
  files: Record<string, string>;
}

export interface GitHubFakeTrees {
  /** Serves the commit's tree and contents and moves the branch to it. */
  loadRepositoryCommit(commit: FakeRepositoryCommit): void;
  /** Recursive listings with more entries than this come back `truncated: true`, as GitHub's do past its limit. */
  truncateTreesOver(entries: number | undefined): void;
}

interface TreeNode {
  commitSha: string;
  /** `''` for the root, else `dir/` with a trailing slash. */
  dir: string;
}

/** `git hash-object`: what GitHub lists as a blob's `sha`. */
export const gitBlobId = (text: string) => {
  const bytes = Buffer.from(text);
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
};

/**
 * Branch heads (`GET /branches/{branch}`), trees (`GET /git/trees/{sha}`, recursive or one level) and
 * contents of whole-repository commits, for the code-knowledge indexer. Contents go into the shared
 * `contents` map, so the existing contents route serves them at the commit and at the branch.
 */
export function serveTrees(fake: GitHubFakeContext): GitHubFakeTrees {
  const { route, contents } = fake;
  const commits = new Map<string, Map<string, string>>();
  const branches = new Map<string, string>();
  const trees = new Map<string, TreeNode>();
  let truncateOver: number | undefined;

  const treeShaOf = (node: TreeNode) => {
    const sha = createHash('sha1').update(`tree ${node.commitSha}:${node.dir}`).digest('hex');
    trees.set(sha, node);
    return sha;
  };

  route('GET', `${R}/branches/*`, (req) => {
    const branch = decodeURIComponent(req.path.slice(req.path.indexOf('/branches/') + '/branches/'.length));
    const sha = branches.get(branch);
    if (sha === undefined) return { status: 404, json: { message: 'Branch not found' } };
    return { json: { name: branch, commit: { sha, url: `${fake.server.url}${R}/commits/${sha}` }, protected: false } };
  });

  // The contract repository: its branches, and its tree at the pull request's head as GitHub lists
  // it recursively (folders, files with their blob ids, the submodule as a `commit` entry).
  for (const [branch, head] of Object.entries(SCM_CONTRACT_SCENARIO.branchHeads)) branches.set(branch, head);

  route('GET', `${R}/git/trees/:sha`, (req) => {
    const sha = req.params.sha ?? '';
    const contract = commits.has(sha) ? undefined : contractTreeAt(sha);
    if (contract) {
      const type = { file: 'blob', directory: 'tree', submodule: 'commit' } as const;
      const tree = contract.map((n) => ({
        path: n.path,
        mode: n.kind === 'directory' ? '040000' : n.kind === 'submodule' ? '160000' : '100644',
        type: type[n.kind],
        sha: n.objectId,
        ...(n.sizeBytes === undefined ? {} : { size: n.sizeBytes }),
      }));
      return { json: { sha, url: `${fake.server.url}${R}/git/trees/${sha}`, tree, truncated: false } };
    }
    const node = commits.has(sha) ? { commitSha: sha, dir: '' } : trees.get(sha);
    const files = node && commits.get(node.commitSha);
    if (!node || !files) return notFound();
    const recursive = req.query.get('recursive') !== null;
    const entries: Array<{ path: string; mode: string; type: string; sha: string; size?: number }> = [];
    const folders = new Set<string>();
    for (const [path, text] of files) {
      if (!path.startsWith(node.dir)) continue;
      const rest = path.slice(node.dir.length);
      const slash = rest.indexOf('/');
      if (recursive || slash < 0) {
        if (recursive) {
          // Git lists each folder on the way to a file once, before the files in it.
          const parts = rest.split('/');
          for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
        }
        entries.push({ path: rest, mode: '100644', type: 'blob', sha: gitBlobId(text), size: Buffer.byteLength(text) });
      } else {
        folders.add(rest.slice(0, slash));
      }
    }
    const tree = [
      ...[...folders].map((folder) => ({
        path: folder,
        mode: '040000',
        type: 'tree',
        sha: treeShaOf({ commitSha: node.commitSha, dir: `${node.dir}${folder}/` }),
      })),
      ...entries,
    ].sort((a, b) => a.path.localeCompare(b.path));
    const truncated = recursive && truncateOver !== undefined && tree.length > truncateOver;
    return {
      json: {
        sha,
        url: `${fake.server.url}${R}/git/trees/${sha}`,
        tree: truncated ? tree.slice(0, truncateOver) : tree,
        truncated,
      },
    };
  });

  return {
    loadRepositoryCommit(commit) {
      const files = new Map(Object.entries(commit.files));
      commits.set(commit.commitSha, files);
      branches.set(commit.branch, commit.commitSha);
      for (const [path, text] of files) contents.set(`${commit.commitSha}:${path}`, text);
    },
    truncateTreesOver(entries) {
      truncateOver = entries;
    },
  };
}
