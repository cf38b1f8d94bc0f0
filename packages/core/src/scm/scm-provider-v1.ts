/**
 * The source-control port. One `ScmProviderFamilyV1` per provider family (Azure DevOps, GitHub,
 * GitLab, Bitbucket) creates `ScmProviderV1` instances for stored connections and owns the webhook
 * side for that family. Adapters live in `@margin/providers`; plugin authors may add their own.
 *
 * Failures are `MarginError`s: `not_found` when the provider says the object does not exist,
 * otherwise `provider_unavailable` with a `providerFailure` detail. Messages never carry credentials.
 */

export const PROVIDER_FAMILIES = ['suiteDevOps', 'gitHostA', 'gitHostB', 'gitHostC'] as const;
export type ProviderFamily = (typeof PROVIDER_FAMILIES)[number];

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
}

export interface FileContent {
  text: string;
  sizeBytes: number;
  isBinary: boolean;
}

export type ThreadStatus = 'open' | 'resolved';

/** A place in the new version of a file; findings anchor on the new side. Lines are 1-based. */
export interface ThreadAnchor {
  filePath: string;
  startLine: number;
  endLine: number;
}

export interface ThreadComment {
  commentId: string;
  author: ScmUser;
  body: string;
  createdAt: string;
}

export interface ReviewThread {
  threadId: string;
  status: ThreadStatus;
  anchor?: ThreadAnchor | undefined;
  comments: ThreadComment[];
}

export interface CreateThreadInput {
  body: string;
  /** Omitted for a pull-request-level comment. */
  anchor?: ThreadAnchor | undefined;
  /** The revision the anchor's line numbers refer to. */
  revision: Revision;
  status?: ThreadStatus | undefined;
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

export interface ScmProviderV1 {
  readonly specificationVersion: 'v1';
  readonly family: ProviderFamily;

  /** A cheap authenticated call proving the credentials work. */
  verify(): Promise<ScmAccount>;
  getPullRequest(ref: PullRequestRef): Promise<PullRequestSnapshot>;
  listRevisions(ref: PullRequestRef): Promise<Revision[]>;
  /** Every changed file between the revision's base and head, across all pages, streamed. */
  listChangedFiles(ref: PullRequestRef, revision: Revision): AsyncIterable<ChangedFile>;
  /** `undefined` when the file does not exist at that commit. */
  getFileContent(ref: RepositoryRef, path: string, commitSha: string): Promise<FileContent | undefined>;
  /** A unified diff for one file, from the provider or computed from both versions. */
  getFileDiff(ref: PullRequestRef, file: ChangedFile, revision: Revision): Promise<string>;
  listThreads(ref: PullRequestRef): AsyncIterable<ReviewThread>;
  createThread(ref: PullRequestRef, input: CreateThreadInput): Promise<CreatedThread>;
  reply(ref: PullRequestRef, threadId: string, body: string): Promise<{ commentId: string }>;
  setThreadStatus(ref: PullRequestRef, threadId: string, status: ThreadStatus): Promise<void>;
  /** Open pull requests of one repository, or of every repository under the scope when none is named. */
  listOpenPullRequests(scope: ScmScopeRef & { repositoryId?: string | undefined }): AsyncIterable<PullRequestSummary>;
  listProjects(scopePath: string): AsyncIterable<ScmProject>;
  listRepositories(scope: ScmScopeRef): AsyncIterable<ScmRepository>;
  listBranches(ref: RepositoryRef): AsyncIterable<string>;
  searchUsers(scopePath: string, search: string): Promise<ScmUser[]>;
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
    }
  | { kind: 'unclassified'; eventType: string; idempotencyKey: string };

export interface ScmWebhookV1 {
  /** Constant-time check of the delivery against the configuration's generated secret. */
  authenticate(headers: WebhookHeaders, rawBody: Uint8Array, secret: string): boolean;
  /** Throws a `validation_failed` MarginError for a body that is not this provider's payload. */
  parse(headers: WebhookHeaders, body: unknown): NormalizedWebhookEvent;
}

export interface ScmProviderFamilyV1 {
  readonly specificationVersion: 'v1';
  readonly family: ProviderFamily;
  readonly authenticationKinds: readonly AuthenticationKind[];
  connect(connection: ScmConnectionConfig): ScmProviderV1;
  readonly webhook: ScmWebhookV1;
}
