import { MarginError } from '../../errors.js';
import { type ProviderRegistry, scmFamily } from '../../providers.js';
import type { ProviderFamily, PullRequestRef, ScmProviderV1 } from '../../scm/index.js';
import { type ReviewPublisher, type ReviewSource, scmReviewSource } from '../pipeline/review-source.js';

/** A pull request's web address read into the coordinates a connection and a `PullRequestRef` need. */
export interface PullRequestUrl {
  family: ProviderFamily;
  /** The connection's host: GitHub/GitLab origin, Azure DevOps organization or collection URL. */
  hostBaseUrl: string;
  scopePath: string;
  projectKey: string;
  /** As the address names it (GitHub, GitLab, Bitbucket: the path slug; Azure DevOps: the name). */
  repositoryName: string;
  /** GitLab: the project's full path, to tell apart projects of the same name in subgroups. */
  repositoryPath: string;
  pullRequestId: number;
}

const EXAMPLES =
  'https://github.com/OWNER/REPO/pull/7, https://gitlab.com/GROUP/PROJECT/-/merge_requests/7, https://dev.azure.com/ORG/PROJECT/_git/REPO/pullrequest/7 or https://bitbucket.org/WORKSPACE/REPO/pull-requests/7';

/**
 * Reads a pull request address of any of the four providers. The family is told by the path
 * (`/pull/`, `/-/merge_requests/`, `/_git/…/pullrequest/`, `/pull-requests/`), so GitHub Enterprise
 * Server, self-managed GitLab and Azure DevOps Server addresses work on any host. GitLab installed
 * under a relative root is not told apart from a group of that name.
 */
export function parsePullRequestUrl(text: string): PullRequestUrl {
  const unusable = (why: string) =>
    MarginError.validation(`--pr ${why}; expected an address like ${EXAMPLES}.`, [{ path: 'pr', message: why }]);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw unusable('is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw unusable('must be an http or https address');
  if (url.username || url.password)
    throw unusable('must not carry credentials (the token comes from MARGIN_SCM_TOKEN)');
  const origin = `${url.protocol}//${url.host}`.toLowerCase();
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const number = (value: string | undefined) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw unusable('does not end in a pull request number');
    return n;
  };

  const dash = segments.indexOf('-');
  if (dash >= 2 && segments[dash + 1] === 'merge_requests') {
    const path = segments.slice(0, dash);
    const namespace = path.slice(0, -1).join('/');
    return {
      family: 'gitHostB',
      hostBaseUrl: origin,
      scopePath: `${origin}/${namespace}`,
      projectKey: namespace,
      repositoryName: path.at(-1) as string,
      repositoryPath: path.join('/'),
      pullRequestId: number(segments[dash + 2]),
    };
  }
  const git = segments.indexOf('_git');
  if (git >= 0 && segments[git + 2]?.toLowerCase() === 'pullrequest') {
    const repository = segments[git + 1] as string;
    const before = segments.slice(0, git);
    // dev.azure.com/ORG/PROJECT; ORG.visualstudio.com/PROJECT; HOST/tfs/COLLECTION/PROJECT. A
    // project whose only repository shares its name may be left out of the address.
    const organizationSegments = url.hostname.toLowerCase() === 'dev.azure.com' ? 1 : 0;
    const hasProject = before.length > organizationSegments;
    const collection = hasProject ? before.slice(0, -1) : before;
    const project = hasProject ? (before.at(-1) as string) : repository;
    const hostBaseUrl = [origin, ...collection.map(encodeURIComponent)].join('/');
    return {
      family: 'suiteDevOps',
      hostBaseUrl,
      scopePath: hostBaseUrl,
      projectKey: project,
      repositoryName: repository,
      repositoryPath: `${project}/${repository}`,
      pullRequestId: number(segments[git + 3]),
    };
  }
  if (segments.length >= 4 && segments[2] === 'pull-requests') {
    if (url.hostname.toLowerCase() !== 'bitbucket.org') {
      throw unusable('names a Bitbucket Server or Data Center pull request, which Margin does not support');
    }
    const [workspace, slug] = segments as [string, string];
    return {
      family: 'gitHostC',
      hostBaseUrl: 'https://bitbucket.org',
      scopePath: `https://bitbucket.org/${workspace}`,
      projectKey: workspace,
      repositoryName: slug,
      repositoryPath: `${workspace}/${slug}`,
      pullRequestId: number(segments[3]),
    };
  }
  if (segments.length >= 4 && segments[2] === 'pull') {
    const [owner, repository] = segments as [string, string];
    return {
      family: 'gitHostA',
      hostBaseUrl: origin,
      scopePath: `${origin}/${owner}`,
      projectKey: owner,
      repositoryName: repository,
      repositoryPath: `${owner}/${repository}`,
      pullRequestId: number(segments[3]),
    };
  }
  throw unusable('is not a pull request or merge request address');
}

/**
 * The pull request's `PullRequestRef`: addresses name repositories by name, the providers' APIs by
 * id, so the id is looked up through the adapter among the repositories the token can see.
 */
export async function resolvePullRequestRef(
  provider: ScmProviderV1,
  pr: PullRequestUrl,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<PullRequestRef> {
  const scope = { scopePath: pr.scopePath, projectKey: pr.projectKey };
  const wanted = pr.repositoryName.toLowerCase();
  for await (const repository of provider.listRepositories(scope, options)) {
    if (repository.name.toLowerCase() !== wanted) continue;
    // GitLab lists subgroups' projects too: the address's full path decides between namesakes.
    if (pr.family === 'gitHostB' && repository.webUrl && !pathOf(repository.webUrl).endsWith(`/${pr.repositoryPath}`))
      continue;
    return { ...scope, repositoryId: repository.repositoryId, pullRequestId: pr.pullRequestId };
  }
  throw MarginError.notFound(
    `No repository ${pr.repositoryPath} is visible to the token in MARGIN_SCM_TOKEN on ${pr.hostBaseUrl}.`,
  );
}

const pathOf = (url: string) => (URL.canParse(url) ? new URL(url).pathname.replace(/\/+$/, '').toLowerCase() : '');

export interface OpenedPullRequest {
  pullRequest: PullRequestUrl;
  ref: PullRequestRef;
  provider: ScmProviderV1;
  /** The provider's calls bound to the pull request: the review's source and publisher. */
  bound: ReviewSource & ReviewPublisher;
}

/** Connects to the address's provider with a personal access token and finds the pull request. */
export async function openPullRequestByUrl(input: {
  registry: Pick<ProviderRegistry, 'scm'>;
  url: string;
  token: string;
  signal?: AbortSignal | undefined;
}): Promise<OpenedPullRequest> {
  const pullRequest = parsePullRequestUrl(input.url);
  const provider = scmFamily({ scm: input.registry.scm, ai: [] }, pullRequest.family).connect({
    family: pullRequest.family,
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: pullRequest.hostBaseUrl,
    secret: input.token,
  });
  const ref = await resolvePullRequestRef(provider, pullRequest, { signal: input.signal });
  return { pullRequest, ref, provider, bound: scmReviewSource(provider, ref) };
}
