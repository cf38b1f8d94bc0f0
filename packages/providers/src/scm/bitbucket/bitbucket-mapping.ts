import type { ChangedFile, ChangeType, PullRequestStatus, ScmUser } from '@margin/core/spec';
import type { BbDiffstat, BbUser } from './bitbucket-wire.js';

/** `uuid` is Bitbucket's stable user id; `nickname` is what people are known by in the UI. */
export function toUser(user: BbUser | null | undefined): ScmUser {
  const login = user?.nickname ?? user?.username ?? user?.display_name ?? 'unknown';
  return {
    externalUserId: user?.uuid ?? user?.account_id ?? login,
    login,
    displayName: user?.display_name ?? login,
    // Access tokens act as an "app user" named after the token.
    isBot: user?.type === 'app_user',
  };
}

export function toStatus(state: string): PullRequestStatus {
  if (state === 'OPEN') return 'open';
  if (state === 'MERGED') return 'merged';
  return 'closed'; // DECLINED, SUPERSEDED
}

const CHANGE_TYPES: Record<string, ChangeType> = {
  added: 'added',
  removed: 'deleted',
  modified: 'modified',
  renamed: 'renamed',
};

/** Diffstat statuses also include conflict states (`merge conflict`, `local deleted`, …): modified. */
export function toChangedFile(entry: BbDiffstat): ChangedFile {
  const changeType = CHANGE_TYPES[entry.status] ?? 'modified';
  const path = entry.new?.path ?? entry.old?.path ?? '';
  return {
    path,
    previousPath: changeType === 'renamed' ? entry.old?.path : undefined,
    changeType,
    rawChangeType: entry.status,
    additions: entry.lines_added,
    deletions: entry.lines_removed,
  };
}

/** `acme/uploader` → `uploader`: the repository slug, as in its URL. */
export function slugOf(fullName: string | undefined): string | undefined {
  if (!fullName) return undefined;
  return fullName.slice(fullName.lastIndexOf('/') + 1);
}
