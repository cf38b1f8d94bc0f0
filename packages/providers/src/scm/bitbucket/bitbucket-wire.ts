/** The parts of Bitbucket Cloud 2.0 answers the adapter reads; everything else is ignored. */

export interface BbPage<T> {
  values: T[];
  next?: string;
  pagelen?: number;
  page?: number;
  size?: number;
}

export interface BbUser {
  type?: string;
  uuid?: string;
  account_id?: string;
  nickname?: string;
  username?: string;
  display_name?: string;
}

export interface BbRepositoryRef {
  type?: string;
  uuid?: string;
  name?: string;
  full_name?: string;
}

export interface BbEndpoint {
  branch?: { name: string } | null;
  commit?: { hash: string } | null;
  repository?: BbRepositoryRef | null;
}

export interface BbPullRequest {
  id: number;
  title: string;
  description?: string | null;
  state: 'OPEN' | 'MERGED' | 'DECLINED' | 'SUPERSEDED' | string;
  draft?: boolean;
  author?: BbUser | null;
  source: BbEndpoint;
  destination: BbEndpoint;
  reviewers?: BbUser[] | null;
  links?: { html?: { href: string } };
}

export interface BbCommit {
  hash: string;
  date?: string;
  parents?: Array<{ hash: string }> | null;
}

export interface BbDiffstat {
  status: 'added' | 'removed' | 'modified' | 'renamed' | string;
  lines_added?: number;
  lines_removed?: number;
  old?: { path: string } | null;
  new?: { path: string } | null;
}

export interface BbInline {
  path: string;
  from?: number | null;
  to?: number | null;
  start_from?: number | null;
  start_to?: number | null;
  /** The lines changed since the comment was written (Bitbucket shows it as outdated). */
  outdated?: boolean | null;
}

export interface BbComment {
  id: number;
  content: { raw: string };
  user?: BbUser | null;
  created_on: string;
  inline?: BbInline | null;
  parent?: { id: number } | null;
  deleted?: boolean;
  pending?: boolean;
  resolution?: { type?: string } | null;
  links?: { html?: { href: string } };
}

export interface BbRepository {
  uuid: string;
  name: string;
  full_name: string;
  slug?: string;
  mainbranch?: { name: string } | null;
  links?: { html?: { href: string } };
}

export interface BbWorkspace {
  slug: string;
  name: string;
  uuid?: string;
}

export interface BbProject {
  key: string;
  name: string;
}

export interface BbBranch {
  name: string;
}

export interface BbBranchWithTarget extends BbBranch {
  target?: { hash: string } | undefined;
}

/** One entry of a `src/{commit}/{dir}/` listing. */
export interface BbSourceEntry {
  path: string;
  /** `commit_file` or `commit_directory`. */
  type: string;
  size?: number | undefined;
  /** E.g. `executable`, `link`, `subrepository`, `binary`, `lfs`. */
  attributes?: string[] | undefined;
}

export interface BbMembership {
  user: BbUser;
}
