import { MarginError } from '../../kernel/index.js';
import type { ProviderRegistry } from '../../provider-registry/index.js';
import type {
  CommittableSuggestionSyntax,
  ProviderFamily,
  PullRequestAddress,
  PullRequestRef,
  ScmProviderFamilyV1,
  ScmProviderV1,
  ScmPullRequestUrlsV1,
} from '../../scm-provider/index.js';
import { type ReviewPublisher, type ReviewSource, scmReviewSource } from '../pipeline/review-source.js';

/** A pull request's web address read into the coordinates a connection and a `PullRequestRef` need. */
export interface PullRequestUrl extends PullRequestAddress {
  /** The registered family that read the address. */
  family: ProviderFamily;
}

type UrlReadingFamily = ScmProviderFamilyV1 & { pullRequestUrls: ScmPullRequestUrlsV1 };

/**
 * Reads a pull request address of any registered family that declares `pullRequestUrls`. The checks
 * every address shares are made here (a URL, http or https, no credentials, a path that decodes, a
 * positive pull request number); the shape is each family's: exactly one must read the address.
 */
export function parsePullRequestUrl(text: string, registry: Pick<ProviderRegistry, 'scm'>): PullRequestUrl {
  const { family, address } = readPullRequestUrl(text, registry);
  return { family: family.family, ...address };
}

/** The family that reads the address, and what it read. */
function readPullRequestUrl(
  text: string,
  registry: Pick<ProviderRegistry, 'scm'>,
): { family: ScmProviderFamilyV1; address: PullRequestAddress } {
  const families = registry.scm.filter((f): f is UrlReadingFamily => f.pullRequestUrls !== undefined);
  const unusable = (why: string) =>
    MarginError.validation(`--pr ${why}; ${expected(families)}.`, [{ path: 'pr', message: why }]);
  const { url, segments } = sharedChecks(text, unusable);
  const readings = families.map((family) => ({ family, reading: family.pullRequestUrls.read(url, segments) }));
  const claims = readings.flatMap(({ family, reading }) =>
    reading && !('refused' in reading) ? [{ family, address: reading }] : [],
  );
  if (claims.length > 1) {
    const names = claims.map(({ family }) => `${family.displayName} (${family.family})`);
    const why = `is read as a pull request address by ${names.join(' and ')}, whose address shapes overlap`;
    throw MarginError.validation(`--pr ${why}; the address alone does not say which to ask.`, [
      { path: 'pr', message: why },
    ]);
  }
  const [claim] = claims;
  if (!claim) {
    // A family's refusal ("not this kind of server") says more than "no family knows it".
    const refusals = readings.flatMap(({ reading }) => (reading && 'refused' in reading ? [reading.refused] : []));
    throw unusable(refusals[0] ?? 'is not a pull request or merge request address');
  }
  const id = claim.address.pullRequestId;
  if (!Number.isSafeInteger(id) || id <= 0) throw unusable('does not end in a pull request number');
  return claim;
}

/** The address as a URL and its decoded path segments, refused as no family could use it. */
function sharedChecks(text: string, unusable: (why: string) => MarginError): { url: URL; segments: readonly string[] } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw unusable('is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw unusable('must be an http or https address');
  if (url.username || url.password)
    throw unusable('must not carry credentials (the token comes from MARGIN_SCM_TOKEN)');
  try {
    return { url, segments: url.pathname.split('/').filter(Boolean).map(decodeURIComponent) };
  } catch {
    throw unusable('has a malformed %-escape in its path');
  }
}

/** "expected an address like A, B or C", from the registered families' examples. */
function expected(families: readonly UrlReadingFamily[]): string {
  const examples = families.map((f) => f.pullRequestUrls.example);
  if (examples.length === 0) return 'no registered source-control family reads pull request addresses';
  const list = examples.length === 1 ? examples[0] : `${examples.slice(0, -1).join(', ')} or ${examples.at(-1)}`;
  return `expected an address like ${list}`;
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
    const path = `/${pr.repositoryPath.toLowerCase()}`;
    if (pr.family === 'gitHostB' && repository.webUrl && !pathOf(repository.webUrl).endsWith(path)) continue;
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
  /** The family's committable-suggestion syntax, for publishing. */
  suggestionSyntax?: CommittableSuggestionSyntax | undefined;
}

/** Connects to the address's provider with a personal access token and finds the pull request. */
export async function openPullRequestByUrl(input: {
  registry: Pick<ProviderRegistry, 'scm'>;
  url: string;
  token: string;
  signal?: AbortSignal | undefined;
}): Promise<OpenedPullRequest> {
  const { family, address } = readPullRequestUrl(input.url, input.registry);
  const pullRequest: PullRequestUrl = { family: family.family, ...address };
  const provider = family.connect({
    family: family.family,
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: pullRequest.hostBaseUrl,
    secret: input.token,
  });
  const ref = await resolvePullRequestRef(provider, pullRequest, { signal: input.signal });
  return {
    pullRequest,
    ref,
    provider,
    bound: scmReviewSource(provider, ref),
    suggestionSyntax: family.capabilities.committableSuggestions,
  };
}
