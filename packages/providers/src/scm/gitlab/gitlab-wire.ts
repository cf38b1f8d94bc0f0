/**
 * The parts of GitLab REST v4 answers the adapter reads. Fields are optional or nullable where GitLab
 * leaves them out on some editions, versions or states; everything else is ignored.
 */

export interface GlUser {
  id: number;
  username: string;
  name?: string | null;
  bot?: boolean | null;
  state?: string | null;
}

export interface GlDiffRefs {
  base_sha: string | null;
  head_sha: string | null;
  start_sha: string | null;
}

export interface GlMergeRequest {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed' | 'locked' | 'merged' | string;
  draft?: boolean;
  work_in_progress?: boolean;
  source_branch: string;
  target_branch: string;
  sha: string | null;
  diff_refs?: GlDiffRefs | null;
  author: GlUser;
  reviewers?: GlUser[] | null;
  web_url?: string;
  references?: { full?: string } | null;
}

export interface GlVersion {
  id: number;
  head_commit_sha: string;
  base_commit_sha: string;
  start_commit_sha: string;
  created_at?: string;
  /** `collected`; `overflow` (or a legacy `overflow_*` / `timeout`) when GitLab stored only part of the diff. */
  state?: string;
  /** Files in the version, as a string: `"230"`, or `"1000+"` past GitLab's diff limits. */
  real_size?: string | null;
}

/** `GET /projects/:id/repository/compare`. */
export interface GlCompare {
  diffs?: GlDiff[] | null;
  /** GitLab ran out of time computing the comparison; `diffs` may lack files. */
  compare_timeout?: boolean | null;
  compare_same_ref?: boolean | null;
}

/** A commit as `repository/merge_base` gives it. */
export interface GlCommit {
  id: string;
  short_id?: string;
  parent_ids?: string[];
}

export interface GlDiff {
  old_path: string;
  new_path: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  a_mode?: string | null;
  b_mode?: string | null;
  diff: string;
  too_large?: boolean | null;
  collapsed?: boolean | null;
  generated_file?: boolean | null;
}

export interface GlPosition {
  position_type?: string;
  base_sha?: string;
  start_sha?: string;
  head_sha?: string;
  old_path?: string | null;
  new_path?: string | null;
  old_line?: number | null;
  new_line?: number | null;
  line_range?: {
    start?: GlRangeEnd | null;
    end?: GlRangeEnd | null;
  } | null;
}

export interface GlRangeEnd {
  line_code?: string | null;
  type?: 'new' | 'old' | string | null;
  new_line?: number | null;
  old_line?: number | null;
}

export interface GlNote {
  id: number;
  type: 'DiffNote' | 'DiscussionNote' | null | string;
  body: string;
  author: GlUser;
  created_at: string;
  system: boolean;
  resolvable?: boolean;
  resolved?: boolean;
  position?: GlPosition | null;
}

export interface GlDiscussion {
  id: string;
  individual_note: boolean;
  notes: GlNote[];
}

export interface GlGroup {
  id: number;
  name: string;
  full_name?: string;
  full_path: string;
}

export interface GlProject {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  default_branch?: string | null;
  web_url?: string;
}

export interface GlBranch {
  name: string;
  commit?: { id: string } | undefined;
}

/** One entry of `GET /projects/:id/repository/tree`. */
export interface GlTreeEntry {
  /** The blob id for `blob`, the tree id for `tree`, the commit for a submodule (`commit`). */
  id: string;
  name: string;
  type: 'blob' | 'tree' | 'commit';
  path: string;
  mode: string;
}
