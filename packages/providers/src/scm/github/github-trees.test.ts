import type { ScmProviderV1 } from '@margin/core/spec';
import { collect } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GH_OWNER, GH_REPOSITORY_ID, type GitHubFake, gitBlobId, startGitHubFake } from './github-fake.js';
import { gitHubFamily } from './github-family.js';

const PAT = 'ghp_treesTestToken0123456789abcdefABCDEF';
const COMMIT = 'c'.repeat(40);
const FILES = {
  'README.md': '# app\n',
  'src/app.ts': 'export const app = 1;\n',
  'src/lib/util.ts': 'export function util() {}\n',
  'src/lib/deep/more.ts': 'export const more = 2;\n',
  'docs/guide.md': 'guide\n',
};

let fake: GitHubFake;
let provider: ScmProviderV1;
beforeEach(async () => {
  fake = await startGitHubFake({ pat: PAT });
  provider = gitHubFamily({ backoffBaseMs: 1 }).connect({
    family: 'gitHostA',
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: fake.hostUrl,
    secret: PAT,
  });
  fake.loadRepositoryCommit({ commitSha: COMMIT, branch: 'release/2026', files: FILES });
});
afterEach(async () => {
  await fake.close();
});

const ref = () => ({ scopePath: `${fake.hostUrl}/${GH_OWNER}`, projectKey: GH_OWNER, repositoryId: GH_REPOSITORY_ID });
const listTree = (pathPrefix?: string) => {
  if (!provider.listTree) throw new Error('the GitHub adapter lists trees');
  return collect(provider.listTree(ref(), COMMIT, { pathPrefix }));
};
const sorted = <T extends { path: string }>(entries: T[]) => [...entries].sort((a, b) => a.path.localeCompare(b.path));

describe('GitHub branch heads and trees', () => {
  it('reads a branch head (slashes included) and answers undefined for a missing branch', async () => {
    expect(await provider.getBranchHead?.(ref(), 'release/2026')).toBe(COMMIT);
    expect(await provider.getBranchHead?.(ref(), 'no-such-branch')).toBeUndefined();
  });

  it('lists every file with its blob id and size, folders left out', async () => {
    const entries = sorted(await listTree());
    expect(entries).toEqual(
      Object.entries(FILES)
        .map(([path, text]) => ({ path, blobId: gitBlobId(text), sizeBytes: Buffer.byteLength(text) }))
        .sort((a, b) => a.path.localeCompare(b.path)),
    );
  });

  it('keeps to the path prefix, however it is written', async () => {
    for (const prefix of ['src/lib', '/src/lib/']) {
      const paths = (await listTree(prefix)).map((e) => e.path);
      expect(paths.sort()).toEqual(['src/lib/deep/more.ts', 'src/lib/util.ts']);
    }
  });

  it('walks the subtrees when GitHub cuts the recursive listing, missing nothing', async () => {
    fake.truncateTreesOver(2);
    const all = (await listTree()).map((e) => e.path).sort();
    expect(all).toEqual(Object.keys(FILES).sort());
    const under = (await listTree('src/lib/deep')).map((e) => e.path);
    expect(under).toEqual(['src/lib/deep/more.ts']);
    // The walk entered only folders on the way to the prefix.
    const treeReads = fake.server.requests.filter((r) => r.path.includes('/git/trees/') && !r.query.has('recursive'));
    expect(treeReads.length).toBeGreaterThan(0);
  });
});
