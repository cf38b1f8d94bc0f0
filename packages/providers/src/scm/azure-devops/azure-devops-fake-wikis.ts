import { gitBlobId } from '../../testing/scenario-history.js';
import { ADO_ORG, type AzureDevOpsFakeContext, adoFixture, notFound, P } from './azure-devops-fake-context.js';

/** The project wiki's own repository in `wikis.json`. */
export const ADO_WIKI_REPOSITORY_ID = '9e5f3a2b-4c6d-4e7f-8a9b-3c4d5e6f7a8b';
/** The code repository whose `docs/handbook` folder the code wiki in `wikis.json` publishes. */
export const ADO_CODE_WIKI_REPOSITORY_ID = '0f6a4b3c-5d7e-4f8a-9b0c-4d5e6f7a8b9c';

/** A commit of another repository than the contract one, served whole: every file's text by path. */
export interface AdoRepositoryCommit {
  repositoryId: string;
  commitSha: string;
  /** The branch whose tip this commit becomes. */
  branch: string;
  files: Record<string, string>;
}

export interface AzureDevOpsFakeWikis {
  /** Serves the commit's refs, recursive items listing and contents, and moves the branch to it. */
  loadRepositoryCommit(commit: AdoRepositoryCommit): void;
}

/**
 * The project's wikis (recorded shape), and whole-repository commits of the repositories behind
 * them: `refs`, `items?scopePath=&recursionLevel=Full` and `items?path=` at a commit, as Azure DevOps
 * answers them for any git repository (a project wiki's included).
 */
export function serveWikis(fake: AzureDevOpsFakeContext): AzureDevOpsFakeWikis {
  const { route } = fake;
  const repositories = new Map<string, { branches: Map<string, string>; commits: Map<string, Map<string, string>> }>();

  route('GET', `/${ADO_ORG}/:project/_apis/wiki/wikis`, () => ({ json: adoFixture('wikis') }));

  const serve = (repositoryId: string) => {
    const repo = { branches: new Map<string, string>(), commits: new Map<string, Map<string, string>>() };
    repositories.set(repositoryId, repo);
    // Literal routes, added later than the contract repository's `:repo` ones, win for this id.
    const base = `${P}/repositories/${repositoryId}`;
    route('GET', `${base}/refs`, (req) => {
      const filter = `refs/${req.query.get('filter') ?? ''}`;
      const value = [...repo.branches]
        .map(([branch, objectId]) => ({ name: `refs/heads/${branch}`, objectId }))
        .filter((r) => r.name.startsWith(filter));
      return { json: { value, count: value.length } };
    });
    route('GET', `${base}/items`, (req) => {
      const commit = req.query.get('versionDescriptor.version') ?? '';
      if (req.query.get('versionDescriptor.versionType') !== 'commit') {
        return { status: 400, json: { message: 'The fake serves this repository only at a commit.' } };
      }
      const files = repo.commits.get(commit);
      if (!files) return notFound('error-item-not-found');
      if (!req.query.has('scopePath')) {
        const text = files.get((req.query.get('path') ?? '').replace(/^\/+/, ''));
        if (text === undefined) return notFound('error-item-not-found');
        return { headers: { 'content-type': 'application/octet-stream' }, text };
      }
      if (req.query.get('recursionLevel') !== 'Full') {
        return { status: 400, json: { message: 'The fake lists only recursionLevel=Full.' } };
      }
      const scope = (req.query.get('scopePath') ?? '/').replace(/^\/+|\/+$/g, '');
      const under = [...files].filter(([path]) => scope === '' || path.startsWith(`${scope}/`));
      if (under.length === 0) return notFound('error-item-not-found');
      // The scope folder itself first, then its folders and files, as Azure DevOps lists them.
      const folders = new Set<string>();
      for (const [path] of under) {
        const parts = path.split('/');
        for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
      }
      const folder = (path: string) => ({
        objectId: 'f'.repeat(40),
        gitObjectType: 'tree',
        commitId: commit,
        path: `/${path}`,
        isFolder: true,
      });
      const rest = [
        ...[...folders].filter((f) => scope === '' || f.startsWith(`${scope}/`)).map(folder),
        ...under.map(([path, text]) => ({
          objectId: gitBlobId(Buffer.from(text)),
          gitObjectType: 'blob',
          commitId: commit,
          path: `/${path}`,
        })),
      ].sort((x, y) => x.path.localeCompare(y.path));
      const value = [folder(scope), ...rest];
      return { json: { count: value.length, value } };
    });
    return repo;
  };

  return {
    loadRepositoryCommit(commit) {
      const repo = repositories.get(commit.repositoryId) ?? serve(commit.repositoryId);
      repo.commits.set(commit.commitSha, new Map(Object.entries(commit.files)));
      repo.branches.set(commit.branch, commit.commitSha);
    },
  };
}
