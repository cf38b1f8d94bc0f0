import { diffOf, type FileChange, pathOf, previousPathOf } from '../../testing/scenario-history.js';
import {
  GH_MAX_COMPARE_FILES,
  GH_MAX_PULL_REQUEST_FILES,
  GH_MERGE_BASE,
  type GitHubFakeContext,
  ghFixture,
  notFound,
  R,
} from './github-fake-context.js';
import type { GhPullRequestFile } from './github-wire.js';

/** Changed files with git's patches, contents at any commit or branch, and `compare` between commits. */
export function serveDiffs(fake: GitHubFakeContext): void {
  const { route, paged, pr, history, files, contents } = fake;

  route('GET', `${R}/pulls/:n/files`, async (req) => {
    const scenario = history.pullRequests.get(Number(req.params.n));
    if (scenario) {
      const latest = scenario.revisions.at(-1)?.changes ?? [];
      return paged(req, await Promise.all(latest.slice(0, GH_MAX_PULL_REQUEST_FILES).map(fileOf)));
    }
    return pr(req) ? paged(req, files) : notFound();
  });

  route('GET', `${R}/contents/*`, (req) => {
    const path = req.path.slice(req.path.indexOf('/contents/') + '/contents/'.length);
    const ref = req.query.get('ref') ?? '';
    const known = contents.get(`${ref}:${path}`);
    const scenarioFile = known === undefined ? history.fileAt(history.refOf(ref), path) : undefined;
    const bytes = known !== undefined ? Buffer.from(known) : scenarioFile?.bytes;
    if (bytes === undefined)
      return {
        status: 404,
        json: {
          ...ghFixture<object>('error-not-found'),
          documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content',
        },
      };
    if (req.headers.accept === 'application/vnd.github.raw+json')
      return { headers: { 'content-type': 'application/vnd.github.raw+json' }, text: bytes.toString('utf8') };
    return {
      json: {
        type: 'file',
        encoding: 'base64',
        size: bytes.length,
        name: path.split('/').at(-1),
        path,
        sha: scenarioFile?.blobId,
        content: bytes.toString('base64'),
      },
    };
  });

  route('GET', `${R}/compare/:spec`, async (req) => {
    const [fromSha, toSha] = (req.params.spec ?? '').split('...');
    if (!fromSha || !toSha) return notFound();
    const comparison = history.compare(fromSha, toSha);
    if (!comparison) {
      return {
        json: {
          status: 'ahead',
          ahead_by: 2,
          behind_by: 1,
          total_commits: 2,
          merge_base_commit: { sha: GH_MERGE_BASE },
          base_commit: { sha: fromSha },
          commits: [],
          files: [],
        },
      };
    }
    // Three dots: GitHub diffs from the merge base of the two commits, not from the first one.
    const changes =
      comparison.mergeBaseSha === fromSha
        ? comparison.changes
        : (history.compare(comparison.mergeBaseSha, toSha)?.changes ?? comparison.changes);
    const ahead = comparison.relation === 'ahead' || comparison.relation === 'diverged' ? 1 : 0;
    const behind = comparison.relation === 'behind' || comparison.relation === 'diverged' ? 1 : 0;
    return {
      json: {
        status: comparison.relation,
        ahead_by: ahead,
        behind_by: behind,
        total_commits: ahead,
        base_commit: { sha: fromSha },
        merge_base_commit: { sha: comparison.mergeBaseSha },
        commits: ahead ? [{ sha: toSha }] : [],
        files: await Promise.all(changes.slice(0, GH_MAX_COMPARE_FILES).map(fileOf)),
      },
    };
  });
}

/** A scenario's file change as GitHub lists it, `patch` as git prints the hunks. */
async function fileOf(change: FileChange): Promise<GhPullRequestFile> {
  const status = { added: 'added', deleted: 'removed', modified: 'modified', renamed: 'renamed' }[change.changeType];
  const { additions, deletions, hunks } = await diffOf(change);
  const previousPath = previousPathOf(change);
  return {
    // GitHub names the head blob; for a removed file, the blob that was removed.
    sha: (change.new ?? change.old)?.blobId,
    filename: pathOf(change),
    status,
    additions,
    deletions,
    changes: additions + deletions,
    ...(previousPath ? { previous_filename: previousPath } : {}),
    // GitHub sends no patch for binaries and for renames without changed lines.
    ...(hunks !== undefined ? { patch: hunks } : {}),
  };
}
