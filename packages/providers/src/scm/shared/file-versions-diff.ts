import type { ChangedFile, FileContent } from '@margin/core/spec';
import { decodeFile } from './normalize.js';
import { computeUnifiedDiff } from './unified-diff.js';

/** Reads a file's bytes at a commit; `undefined` when the file does not exist there. */
export type ReadFileAt = (path: string, commitSha: string) => Promise<Uint8Array | undefined>;

/**
 * One file's unified diff computed here from its two versions, for providers without a diff endpoint
 * (Azure DevOps) and where the provider sent no patch (GitHub's large files, interdiffs).
 *
 * Both sides are read whatever `file.changeType` says: a change type describes the file against the
 * pull request's merge base, but the diff may be asked between two pushes, where a file "added" by
 * the pull request already exists at the older head. A side that is absent diffs as `/dev/null`.
 * A file listed as binary is not downloaded at all.
 */
export async function diffFromVersions(
  file: ChangedFile,
  baseSha: string,
  headSha: string,
  read: ReadFileAt,
): Promise<string> {
  const oldPath = file.previousPath ?? file.path;
  const newPath = file.path;
  if (file.isBinary) {
    return computeUnifiedDiff({
      oldPath: file.changeType === 'added' ? undefined : oldPath,
      newPath: file.changeType === 'deleted' ? undefined : newPath,
      oldText: '',
      newText: '',
      isBinary: true,
    });
  }
  const [oldBytes, newBytes] = await Promise.all([read(oldPath, baseSha), read(newPath, headSha)]);
  return diffOfVersions(
    oldPath,
    newPath,
    oldBytes ? decodeFile(oldBytes) : undefined,
    newBytes ? decodeFile(newBytes) : undefined,
  );
}

/**
 * One file's unified diff from its two versions as read, each `undefined` where the file does not
 * exist (that side diffs as `/dev/null`); binary when either side is.
 */
export function diffOfVersions(
  oldPath: string,
  newPath: string,
  before: Pick<FileContent, 'text' | 'isBinary'> | undefined,
  after: Pick<FileContent, 'text' | 'isBinary'> | undefined,
): Promise<string> {
  return computeUnifiedDiff({
    oldPath: before ? oldPath : undefined,
    newPath: after ? newPath : undefined,
    oldText: before?.text ?? '',
    newText: after?.text ?? '',
    isBinary: (before?.isBinary ?? false) || (after?.isBinary ?? false),
  });
}
