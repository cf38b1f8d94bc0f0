import type { MarginError } from '../kernel/index.js';

/**
 * The source-control port. One `ScmProviderFamilyV1` per provider family (Azure DevOps, GitHub,
 * GitLab, Bitbucket) creates `ScmProviderV1` instances for stored connections, owns the webhook
 * side for that family and may read the web addresses of its pull requests. Adapters live in `@margin/providers`; plugin authors may add their own.
 *
 * Failures are `MarginError`s: `not_found` when the provider says the object does not exist,
 * otherwise `provider_unavailable` with a `providerFailure` detail. Messages never carry credentials.
 */

/** The families Margin ships (the spec's wire values); plugins register others. */
export const BUILT_IN_PROVIDER_FAMILIES = ['suiteDevOps', 'gitHostA', 'gitHostB', 'gitHostC'] as const;
export type BuiltInProviderFamily = (typeof BUILT_IN_PROVIDER_FAMILIES)[number];
/** A provider family id: a built-in one, or one a registered `ScmProviderFamilyV1` declares. */
export type ProviderFamily = BuiltInProviderFamily | (string & {});

export const AUTHENTICATION_KINDS = ['oauthClientCredentials', 'personalAccessToken', 'appInstallation'] as const;
export type AuthenticationKind = (typeof AUTHENTICATION_KINDS)[number];

/** A stored connection with its secret opened, as an adapter needs it. */
export interface ScmConnectionConfig {
  family: ProviderFamily;
  authenticationKind: AuthenticationKind;
  /** e.g. `https://dev.azure.com/acme`, `https://github.com`, `https://gitlab.example.com`. */
  hostBaseUrl: string;
  /** PAT, client secret or App private key (PEM), depending on `authenticationKind`. */
  secret: string;
  oAuthTenantId?: string | undefined;
  oAuthClientId?: string | undefined;
  hostedAppId?: number | undefined;
  hostedAppInstallationId?: number | undefined;
}

/**
 * Where things live. `scopePath` is the scope URL (ADO organization or collection, GitHub owner,
 * GitLab group, Bitbucket workspace); `projectKey` is the ADO project name, GitHub owner login,
 * GitLab group full path or Bitbucket workspace slug.
 */
export interface ScmScopeRef {
  scopePath: string;
  projectKey: string;
}

/** `repositoryId`: ADO repository GUID, GitHub numeric id as a string, GitLab project id, Bitbucket UUID. */
export interface RepositoryRef extends ScmScopeRef {
  repositoryId: string;
}

export interface PullRequestRef extends RepositoryRef {
  pullRequestId: number;
}

export interface ScmUser {
  externalUserId: string;
  login: string;
  displayName: string;
  isBot: boolean;
}

export type PullRequestStatus = 'open' | 'closed' | 'merged';

/** One reviewable state of a pull request: the commits a review is about. */
export interface Revision {
  /** Provider iteration/version id where it has one (ADO iteration, GitLab version); else the head SHA. */
  revisionId: string;
  headSha: string;
  baseSha: string;
  /** Merge base of head and target, when the provider reports it. */
  mergeBaseSha?: string | undefined;
  createdAt?: string | undefined;
}

export interface PullRequestSnapshot {
  ref: PullRequestRef;
  title: string;
  description: string;
  status: PullRequestStatus;
  isDraft: boolean;
  /** Branch names without `refs/heads/`. */
  sourceBranch: string;
  targetBranch: string;
  author: ScmUser;
  /** The newest revision. */
  revision: Revision;
  repositoryName: string;
  /**
   * Who owns the repository, as the provider says: the GitHub owner login, the GitLab namespace's
   * full path. Where a provider reads repositories by id alone (GitHub, GitLab) configurations are
   * bounded by it, so adapters of those families must set it.
   */
  repositoryOwner?: string | undefined;
  webUrl?: string | undefined;
  reviewers?: ScmUser[] | undefined;
}

export type PullRequestSummary = Pick<
  PullRequestSnapshot,
  | 'ref'
  | 'title'
  | 'status'
  | 'isDraft'
  | 'sourceBranch'
  | 'targetBranch'
  | 'revision'
  | 'repositoryName'
  | 'repositoryOwner'
  | 'reviewers'
>;

export type ChangeType = 'added' | 'modified' | 'deleted' | 'renamed';

export interface ChangedFile {
  path: string;
  /** For renames. */
  previousPath?: string | undefined;
  changeType: ChangeType;
  /** The provider's own value, kept for diagnostics. */
  rawChangeType?: string | undefined;
  isBinary?: boolean | undefined;
  additions?: number | undefined;
  deletions?: number | undefined;
  /**
   * Git blob id of the base-side version, where the provider names it (Azure DevOps
   * `originalObjectId`). With `newBlobId` it tells that a file did not change between two reviews
   * without reading it.
   */
  oldBlobId?: string | undefined;
  /** Git blob id of the head-side version, where the provider names it (GitHub `sha`, ADO `objectId`). */
  newBlobId?: string | undefined;
}

/** Options every provider call takes. */
export interface ScmCallOptions {
  /**
   * Aborts the call (and any retry wait) when the review is stopped, superseded or the host shuts
   * down. An aborted call rejects with the signal's reason (an `AbortError`), not a `MarginError`:
   * nobody is waiting for an answer to explain.
   */
  signal?: AbortSignal | undefined;
}

/** Why a listing holds fewer entries than the provider has. */
export interface ListingTruncation {
  /** How many entries the provider lists at most, e.g. 3,000 changed files on GitHub. */
  limit: number;
  /** Said to the user as is, e.g. "GitHub lists at most 3,000 changed files of a pull request." */
  reason: string;
}

export interface ListChangedFilesOptions extends ScmCallOptions {
  /**
   * Called once, after the last file, when the provider capped the listing. Files past the cap are
   * never silently dropped by the adapter; it says so here and the review discloses it.
   */
  onTruncated?: ((truncation: ListingTruncation) => void) | undefined;
}

/**
 * One file's diff as the provider will anchor comments on it.
 *
 * `text` is a unified diff shaped like `git diff` without its `diff --git` line: `--- a/old` /
 * `+++ b/new` (or `/dev/null`), then `@@` hunks with git's 3 context lines and `\ No newline at end
 * of file` markers. A pure rename or mode change has headers and no hunks; a binary file is the single
 * line `Binary files a/x and b/x differ`.
 */
export interface FileDiff {
  text: string;
  /**
   * Which new-side lines accept an inline comment: `diffLines` — the added and context lines of the
   * hunks in `text` (GitHub, GitLab, Bitbucket); `anyLine` — any line of the new file (Azure DevOps).
   */
  commentable: 'diffLines' | 'anyLine';
  /** The provider withheld or cut this diff (too large); `text` is what could be had. */
  truncated?: boolean | undefined;
}

/** How two commits of a repository relate, and the files that differ between them. */
export interface CommitComparison {
  /**
   * `ahead`: `toSha` descends from `fromSha` (an ordinary push); `identical`: the same commit;
   * `behind`: `toSha` is an ancestor of `fromSha`; `diverged`: history was rewritten (a force push);
   * `unknown`: the provider cannot tell.
   */
  relation: 'ahead' | 'identical' | 'behind' | 'diverged' | 'unknown';
  /** Files that differ between the two commits (from `fromSha` to `toSha`). */
  files: ChangedFile[];
  /** Set when the provider capped the file list. */
  truncation?: ListingTruncation | undefined;
}

export interface FileContent {
  text: string;
  sizeBytes: number;
  isBinary: boolean;
}

export type ThreadStatus = 'open' | 'resolved';

/**
 * A place in one version of a file. Lines are 1-based and, with `side: 'new'` (the default), numbered
 * in the head version; with `side: 'old'` in the base version (a comment on removed lines).
 */
export interface ThreadAnchor {
  /** The file's path in the head version (for a deleted file: its base path). */
  filePath: string;
  startLine: number;
  endLine: number;
  side?: 'new' | 'old' | undefined;
  /** The file's path in the base version when it was renamed (GitLab's `old_path` needs it). */
  previousPath?: string | undefined;
}

export interface ThreadComment {
  commentId: string;
  author: ScmUser;
  body: string;
  createdAt: string;
}

/**
 * How a person closed a thread, where the provider records more than "resolved": Azure DevOps
 * `fixed`, `wontFix`, `byDesign` and `closed`. A `wontFix` or `byDesign` thread is a rejection the
 * review remembers.
 */
export type ThreadClosure = 'fixed' | 'wontFix' | 'byDesign' | 'closed';

export interface ReviewThread {
  threadId: string;
  status: ThreadStatus;
  anchor?: ThreadAnchor | undefined;
  /** Oldest first. Bodies are returned without the hidden marker. */
  comments: ThreadComment[];
  /** The hidden marker the thread was created with (see `CreateThreadInput.marker`), read back. */
  marker?: string | undefined;
  /** The provider's own status word, kept for diagnostics (ADO `wontFix`, GitLab `resolved`, ...). */
  providerStatus?: string | undefined;
  /** Set when the provider says how the thread was closed. */
  closedAs?: ThreadClosure | undefined;
  /** The code the thread points at changed since it was written (GitHub `isOutdated`, ...). */
  isOutdated?: boolean | undefined;
  /** The first comment was written with this connection's credentials. */
  authoredByConnection?: boolean | undefined;
}

/** Markers are short and plain so every provider can keep them: letters, digits and `:=_.,-`. */
export const THREAD_MARKER_PATTERN = /^[A-Za-z0-9:=_.,-]{1,200}$/;

export interface CreateThreadInput {
  body: string;
  /** Omitted for a pull-request-level comment. */
  anchor?: ThreadAnchor | undefined;
  /** The revision the anchor's line numbers refer to. */
  revision: Revision;
  status?: ThreadStatus | undefined;
  /**
   * An identifier kept with the thread but not shown to readers (an HTML comment in Markdown
   * bodies, a thread property on Azure DevOps), matching `THREAD_MARKER_PATTERN`. `listThreads`
   * returns it as `marker`, so a retry after a crash finds what was already posted.
   */
  marker?: string | undefined;
}

/** One thread of a batch: created, or refused by the provider without failing the others. */
export type CreateThreadOutcome = { ok: true; thread: CreatedThread } | { ok: false; error: MarginError };

export interface EditCommentInput {
  threadId: string;
  commentId: string;
  body: string;
  /** Kept hidden in the edited body, as on creation. */
  marker?: string | undefined;
}

export interface CreatedThread {
  threadId: string;
  commentId: string;
  webUrl?: string | undefined;
}

export interface ScmProject {
  projectKey: string;
  name: string;
}

export interface ScmRepository {
  repositoryId: string;
  name: string;
  projectKey: string;
  defaultBranch?: string | undefined;
  webUrl?: string | undefined;
}

export interface ScmAccount {
  /** Who the credentials act as, for display after verification. */
  login: string;
  displayName: string;
}

/** One file of a repository's tree at a commit. */
export interface TreeEntry {
  /** Repository-relative, no leading slash. */
  path: string;
  /**
   * Git blob id where the provider lists it (GitHub, GitLab, Azure DevOps); a refresh re-reads a file
   * only when this changed. Absent where the listing has none (Bitbucket): the indexer then relies on
   * `compareCommits` between the indexed and the new head.
   */
  blobId?: string | undefined;
  /** Bytes, where the listing says (files over the indexer's limit are skipped unread). */
  sizeBytes?: number | undefined;
}

/**
 * A wiki of a project (Azure DevOps), read as the git repository behind it: a project wiki has a
 * repository of its own, a code wiki publishes a folder of a code repository at some branches.
 */
export interface ScmWiki {
  wikiId: string;
  name: string;
  kind: 'projectWiki' | 'codeWiki';
  /** The backing repository: what a wiki knowledge source names. */
  repositoryId: string;
  /** The folder shown as the wiki, repository-relative without slashes at either end; `''` for the whole repository. */
  mappedPath: string;
  /** The branches the wiki is published from, the default first (a project wiki: `wikiMaster`). */
  branches: string[];
}

export type CommitStatusState = 'pending' | 'success' | 'failure' | 'error';

/** A status on a pull request's head commit (GitHub/GitLab commit status, Bitbucket build status, ADO PR status). */
export interface CommitStatusInput {
  /** Shown by the provider as the check's name; the same name replaces the earlier status. */
  name: string;
  state: CommitStatusState;
  /** One line; adapters cut it to the provider's limit (GitHub: 140 characters). */
  description: string;
  /** Where the status links, e.g. the console's job page. */
  targetUrl?: string | undefined;
  /** The revision whose head commit (ADO: iteration) carries the status. */
  revision: Revision;
}

export interface ScmProviderV1 {
  readonly specificationVersion: 'v1';
  readonly family: ProviderFamily;

  /** A cheap authenticated call proving the credentials work. */
  verify(options?: ScmCallOptions): Promise<ScmAccount>;
  getPullRequest(ref: PullRequestRef, options?: ScmCallOptions): Promise<PullRequestSnapshot>;
  listRevisions(ref: PullRequestRef, options?: ScmCallOptions): Promise<Revision[]>;
  /**
   * Every changed file between the revision's base (its merge base) and head, across all pages,
   * streamed. A provider that caps the listing says so through `options.onTruncated`.
   */
  listChangedFiles(
    ref: PullRequestRef,
    revision: Revision,
    options?: ListChangedFilesOptions,
  ): AsyncIterable<ChangedFile>;
  /** How two commits relate and which files differ between them, e.g. the last reviewed head and the new one. */
  compareCommits(
    ref: RepositoryRef,
    fromSha: string,
    toSha: string,
    options?: ScmCallOptions,
  ): Promise<CommitComparison>;
  /**
   * A file's content at a commit SHA, or at the tip of a branch (`{ branch: 'main' }`, for
   * configuration read from the target branch). `undefined` when the file does not exist there.
   */
  getFileContent(
    ref: RepositoryRef,
    path: string,
    version: string | { branch: string },
    options?: ScmCallOptions,
  ): Promise<FileContent | undefined>;
  /**
   * One file's diff from `revision.mergeBaseSha` (when given, else the pull request's merge base)
   * to `revision.headSha`, from the provider or computed from both versions.
   */
  getFileDiff(ref: PullRequestRef, file: ChangedFile, revision: Revision, options?: ScmCallOptions): Promise<FileDiff>;
  listThreads(ref: PullRequestRef, options?: ScmCallOptions): AsyncIterable<ReviewThread>;
  createThread(ref: PullRequestRef, input: CreateThreadInput, options?: ScmCallOptions): Promise<CreatedThread>;
  /**
   * The inline threads of one review run, in the provider's native batch where it has one (GitHub:
   * one review with `event: COMMENT`), else one by one. One refused thread does not fail the others;
   * results are in input order.
   */
  createThreads(
    ref: PullRequestRef,
    input: { revision: Revision; threads: Array<Omit<CreateThreadInput, 'revision'>> },
    options?: ScmCallOptions,
  ): Promise<CreateThreadOutcome[]>;
  /** Replaces a comment's body (the review summary is updated in place, never posted twice). */
  editComment(ref: PullRequestRef, input: EditCommentInput, options?: ScmCallOptions): Promise<void>;
  reply(ref: PullRequestRef, threadId: string, body: string, options?: ScmCallOptions): Promise<{ commentId: string }>;
  setThreadStatus(ref: PullRequestRef, threadId: string, status: ThreadStatus, options?: ScmCallOptions): Promise<void>;
  /** Open pull requests of one repository, or of every repository under the scope when none is named. */
  listOpenPullRequests(
    scope: ScmScopeRef & { repositoryId?: string | undefined },
    options?: ScmCallOptions,
  ): AsyncIterable<PullRequestSummary>;
  listProjects(scopePath: string, options?: ScmCallOptions): AsyncIterable<ScmProject>;
  listRepositories(scope: ScmScopeRef, options?: ScmCallOptions): AsyncIterable<ScmRepository>;
  listBranches(ref: RepositoryRef, options?: ScmCallOptions): AsyncIterable<string>;
  searchUsers(scopePath: string, search: string, options?: ScmCallOptions): Promise<ScmUser[]>;

  // Optional members, added within v1: a plugin written before them still loads, and core says what
  // it cannot do without them (a protocol warning, a failed index) instead of refusing the adapter.
  // Every built-in adapter implements them (`listWikis`: those whose family offers wikis).

  /** Sets a status on the pull request's head commit. A token without the right throws `provider_unavailable` (403). */
  setCommitStatus?(ref: PullRequestRef, input: CommitStatusInput, options?: ScmCallOptions): Promise<void>;
  /** The commit SHA a branch points at, or `undefined` when the branch does not exist. */
  getBranchHead?(ref: RepositoryRef, branch: string, options?: ScmCallOptions): Promise<string | undefined>;
  /**
   * Every file (not directory, not submodule) of the repository at `commitSha`, under `pathPrefix`
   * when given, across all pages, streamed in no particular order.
   */
  listTree?(
    ref: RepositoryRef,
    commitSha: string,
    options?: ScmCallOptions & { pathPrefix?: string | undefined },
  ): AsyncIterable<TreeEntry>;
  /** The project's wikis, for a family with `capabilities.wikiSources`; without it, wiki ids are entered by hand. */
  listWikis?(scope: ScmScopeRef, options?: ScmCallOptions): AsyncIterable<ScmWiki>;
}

export const WEBHOOK_EVENT_KINDS = ['pullRequestCreated', 'pullRequestUpdated', 'pullRequestCommented'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** Header names lower-cased; values as received. */
export type WebhookHeaders = Readonly<Record<string, string | undefined>>;

export type NormalizedWebhookEvent =
  | {
      kind: WebhookEventKind;
      /** The provider's own event name, for the delivery record. */
      eventType: string;
      repositoryId: string;
      repositoryName?: string | undefined;
      projectKey?: string | undefined;
      pullRequestId: number;
      sourceBranch: string;
      targetBranch: string;
      status: PullRequestStatus;
      headSha?: string | undefined;
      /** Stable per delivery, so retries and duplicates collapse onto one job. */
      idempotencyKey: string;
      /** For `pullRequestCommented`: the new comment, as the payload carries it (mentions are read from it). */
      comment?: WebhookComment | undefined;
    }
  | { kind: 'unclassified'; eventType: string; idempotencyKey: string };

/**
 * A comment a `pullRequestCommented` delivery announces. Ids are those the adapter's `listThreads`
 * and `reply` use, so a comment seen in a delivery and in a listing is the same comment.
 */
export interface WebhookComment {
  /** The provider's comment id (Azure DevOps: the id within its thread). */
  commentId: string;
  /** The thread to answer in; absent where the comment opens no thread (GitHub and Forgejo conversation comments). */
  threadId?: string | undefined;
  /** As written, Markdown; bodies carrying a hidden marker are Margin's own. */
  body: string;
  author: ScmUser;
  createdAt: string;
  /** Written on the code (an inline or diff comment), not on the pull request as a whole. */
  isReviewComment?: boolean | undefined;
}

export interface ScmWebhookV1 {
  /** Constant-time check of the delivery against the configuration's generated secret. */
  authenticate(headers: WebhookHeaders, rawBody: Uint8Array, secret: string): boolean;
  /** Throws a `validation_failed` MarginError for a body that is not this provider's payload. */
  parse(headers: WebhookHeaders, body: unknown): NormalizedWebhookEvent;
}

/** See `ScmProviderFamilyV1.capabilities.committableSuggestions`. */
export type CommittableSuggestionSyntax = 'suggestionBlock' | 'suggestionBlockWithOffsets';

/** What a code review is called on the wire of review jobs. */
export type CodeReviewPlatform = 'pullRequest' | 'mergeRequest';

/**
 * A pull request's coordinates as its web address gives them: the connection's `hostBaseUrl`, the
 * scope, and the repository still by name (the port names repositories by id, so whoever opens the
 * pull request looks the id up among the scope's repositories).
 */
export interface PullRequestAddress {
  /** The connection's host: GitHub/GitLab origin, Azure DevOps organization or collection URL, … */
  hostBaseUrl: string;
  scopePath: string;
  projectKey: string;
  /** As the address names it (GitHub, GitLab, Bitbucket: the path slug; Azure DevOps: the name). */
  repositoryName: string;
  /**
   * Where the repository lives, as people write it (`OWNER/REPO`, `GROUP/SUBGROUP/PROJECT`,
   * `PROJECT/REPO`): said when it cannot be found; GitLab also tells namesakes in subgroups apart by it.
   */
  repositoryPath: string;
  /**
   * The number the address ends in. An address of the family's shape that ends in none (a list
   * page) is better refused than read, so that a family whose shape it really is may read it; one
   * read with a number that is not a positive integer is refused by the caller all the same.
   */
  pullRequestId: number;
}

/**
 * How a family reads the web addresses of its pull requests (`margin review --pr <url>`). Optional:
 * a family without it is not reviewed by address. Families are asked in turn; an address two of
 * them read is refused as ambiguous, so a shape should be as narrow as the provider's own.
 */
export interface ScmPullRequestUrlsV1 {
  /**
   * One address of the family's shape with placeholders in capitals, listed when an address is not
   * understood: `https://github.com/OWNER/REPO/pull/7`.
   */
  readonly example: string;
  /**
   * What `url` addresses when it has the family's shape, else `undefined`. Told by the path rather
   * than the host where the provider is self-hosted (GitHub Enterprise Server, self-managed GitLab
   * live on any host). `{ refused }` when the address has the shape but the family cannot serve it,
   * saying why in words that follow the option's name (`names a Bitbucket Server pull request, which
   * Margin does not support`); a refusal stands only when no other family reads the address.
   *
   * Called only with an http or https address without credentials whose path decodes; `segments`
   * are its path's non-empty segments, percent-decoded. Pure: no network, no state.
   */
  read(url: URL, segments: readonly string[]): PullRequestAddress | { refused: string } | undefined;
}

/**
 * A source-control family as an adapter registers it: its facts (core derives the support matrix,
 * the webhook receiver's paths and the job's code-review platform from them) and its behaviour.
 */
export interface ScmProviderFamilyV1 {
  readonly specificationVersion: 'v1';
  /** The wire value (`gitHostA`); for a plugin, its own id (`forgejo`), matching `REGISTERED_ID_PATTERN`. */
  readonly family: ProviderFamily;
  /** How people call it, for messages and the console (`GitHub`). */
  readonly displayName: string;
  /** The credentials it accepts; core refuses a connection of any other kind. */
  readonly authenticationKinds: readonly AuthenticationKind[];
  /** The webhook receiver's segment: `/webhooks/v1/providers/<segment>/<pathKey>`, matched ignoring case. */
  readonly receiverSegment: string;
  /** What the family calls a code review. */
  readonly codeReviewPlatform: CodeReviewPlatform;
  readonly capabilities: {
    /**
     * The adapter reads a repository by its id alone (`/repositories/{id}`), so the token may reach
     * beyond a configuration's owner or group: core checks the repository's owner against it.
     */
    readonly repositoriesById: boolean;
    /** Offers wiki pages as code-knowledge sources (`sourceKind: adoWiki`). */
    readonly wikiSources: boolean;
    /**
     * How an inline comment carries a replacement readers commit with one click. `suggestionBlock`: a
     * ```` ```suggestion ```` fence replaces exactly the lines the comment is on (GitHub).
     * `suggestionBlockWithOffsets`: ```` ```suggestion:-N+M ```` replaces N lines above to M lines below
     * the line the comment sits on, a range comment sitting on its last line (GitLab). Absent: the
     * family has none, and a replacement is shown as a plain "Suggested change" block.
     */
    readonly committableSuggestions?: CommittableSuggestionSyntax | undefined;
    /**
     * Comment ids are numbered per thread (Azure DevOps), so only thread and comment id together name
     * a comment. Optional within v1; absent means ids are unique within a pull request.
     */
    readonly commentIdsPerThread?: boolean | undefined;
  };
  connect(connection: ScmConnectionConfig): ScmProviderV1;
  readonly webhook: ScmWebhookV1;
  /** Reads its pull requests' web addresses; without it, the family's pull requests are not reviewed by address. */
  readonly pullRequestUrls?: ScmPullRequestUrlsV1 | undefined;
}
