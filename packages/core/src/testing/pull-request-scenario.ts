import type { ChangeType } from '../scm-provider/index.js';

/**
 * A pull request described by its file versions, which every provider fake (`@margin/providers/testing`)
 * can serve in its own wire shapes: `fake.loadPullRequest(scenario)`. The fake computes what its
 * provider would send from these texts (GitHub `patch`, GitLab `diff`, Bitbucket's unified diff,
 * Azure DevOps iteration changes) and keeps serving the contract scenario's other objects.
 *
 * Loading a scenario again with the same `number` and a new `headSha` is a push: the fake keeps the
 * earlier revision (its iterations/versions/commits list grows) and the threads already posted.
 */
export interface PullRequestScenario {
  number: number;
  title: string;
  description: string;
  sourceBranch: string;
  targetBranch: string;
  /** 40 hex characters each. */
  headSha: string;
  baseSha: string;
  /** Defaults to `baseSha`. */
  mergeBaseSha?: string | undefined;
  status?: 'open' | 'closed' | 'merged' | undefined;
  /**
   * When a scenario is loaded again for the same pull request (a push): whether the new head
   * descends from the previous one (`ahead`, the default) or history was rewritten (`diverged`, a
   * force push). `compareCommits` answers with it.
   */
  relationToPreviousHead?: 'ahead' | 'diverged' | undefined;
  isDraft?: boolean | undefined;
  files: PullRequestScenarioFile[];
  /**
   * Files on branch tips that are not part of the change, e.g. `.margin/config.yml` on the target
   * branch: `{ main: { '.margin/config.yml': 'exclude: [...]' } }`.
   */
  branchFiles?: Record<string, Record<string, string>> | undefined;
}

export interface PullRequestScenarioFile {
  /** Path in the head version (for a deleted file: its path in the base version). */
  path: string;
  /** For a rename: the path in the base version. */
  previousPath?: string | undefined;
  changeType: ChangeType;
  /** Content at the merge base; absent for an added file. */
  oldText?: string | undefined;
  /** Content at the head; absent for a deleted file. */
  newText?: string | undefined;
  /** A binary file: served as bytes with a NUL, and diffed as `Binary files … differ`. */
  binary?: boolean | undefined;
}

/** What a provider fake recorded of one write request, as the wire carried it. */
export interface RecordedWrite {
  method: string;
  /** Path and query, as received. */
  path: string;
  body: unknown;
}
