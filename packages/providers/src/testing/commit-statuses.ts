import type { FakeReply, FakeRequest } from './fake-http-server.js';

/** One status a provider fake was sent, in the provider's own words (its state names, its fields). */
export interface RecordedCommitStatus {
  /** The commit it was set on; for Azure DevOps, which sets statuses on the pull request, `pr:<id>`. */
  commit: string;
  /** GitHub/Forgejo `context`, GitLab `name`, Bitbucket `key`, Azure DevOps `context.name`. */
  name: string;
  state: string;
  description: string | undefined;
  targetUrl: string | undefined;
  /** The request body as received, for provider-specific fields (`iterationId`, `genre`, ...). */
  body: unknown;
}

/**
 * The statuses part every SCM fake shares: what it was sent (the newest last), and a switch that makes
 * it refuse statuses with 403, as the provider does for a token that may read and comment but not set
 * statuses. Status writes stay out of a fake's `writes`, so tests about comments read as before.
 */
export interface CommitStatusBoard {
  readonly statuses: RecordedCommitStatus[];
  /** From now on (or, with `false`, no longer) every status is refused with 403. */
  refuseStatuses(refused?: boolean): void;
}

export function createCommitStatusBoard(refusal: () => FakeReply): CommitStatusBoard & {
  /** Records the status, or answers the refusal while refused. */
  receive(record: RecordedCommitStatus, accepted: () => FakeReply): FakeReply;
} {
  const statuses: RecordedCommitStatus[] = [];
  let refused = false;
  return {
    statuses,
    refuseStatuses(value = true) {
      refused = value;
    },
    receive(record, accepted) {
      if (refused) return refusal();
      statuses.push(record);
      return accepted();
    },
  };
}

/** A status write, left out of the recorded writes. */
export const isStatusWrite = (req: FakeRequest): boolean => req.method === 'POST' && /\/statuses(\/|$)/i.test(req.path);
