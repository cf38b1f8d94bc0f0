import type { ChangeType } from '../../scm-provider/index.js';

/** One file of a multi-file unified diff, in the shape `FileDiff.text` carries it. */
export interface UnifiedDiffFile {
  /** Head path (for a deleted file: its base path). */
  path: string;
  previousPath?: string | undefined;
  changeType: ChangeType;
  isBinary: boolean;
  additions: number;
  deletions: number;
  /**
   * `--- a/old` / `+++ b/new` (or `/dev/null`) and the hunks as given; a binary file is the single
   * line `Binary files a/x and b/x differ`; a pure rename or mode change is its headers alone.
   */
  diff: string;
}

const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

interface Pending {
  gitOld?: string | undefined;
  gitNew?: string | undefined;
  minus?: string | null | undefined;
  plus?: string | null | undefined;
  renameFrom?: string | undefined;
  renameTo?: string | undefined;
  created: boolean;
  deleted: boolean;
  binary?: { from: string | null | undefined; to: string | null | undefined } | undefined;
  hunks: string[];
  additions: number;
  deletions: number;
}

/**
 * Splits the text of `git diff` (or `diff -u`, or a patch file) into its files: paths, change type
 * and each file's own diff, so one reading of a diff serves both a diff given as text
 * (`reviewDiff`) and a git repository read file by file (`margin review`). Hunk bodies are consumed
 * by their line counts, so a removed line that happens to begin with `--- ` never starts a file.
 * CRLF line ends stay as they are: the diff reader shows and anchors them.
 */
export function splitUnifiedDiff(text: string): UnifiedDiffFile[] {
  const files: UnifiedDiffFile[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let current: Pending | undefined;
  const start = (): Pending => {
    if (current) finish(current, files);
    current = { created: false, deleted: false, hunks: [], additions: 0, deletions: 0 };
    return current;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('diff --git ')) {
      const f = start();
      const paths = gitHeaderPaths(line.slice('diff --git '.length));
      f.gitOld = paths?.[0];
      f.gitNew = paths?.[1];
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      // A headerless diff (`diff -u`, a patch without `diff --git`) starts a file here.
      const f = current && current.minus === undefined && current.hunks.length === 0 ? current : start();
      f.minus = headerPath(line.slice(4));
      f.plus = headerPath((lines[i + 1] as string).slice(4));
      i++;
      continue;
    }
    if (!current) continue; // preamble: a commit message, `index` lines of nothing
    const f: Pending = current;
    const hunk = HUNK_HEADER.exec(line);
    if (hunk) {
      let oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      let newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      f.hunks.push(line);
      while (i + 1 < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i + 1]?.startsWith('\\'))) {
        const body = lines[++i] as string;
        f.hunks.push(body);
        const marker = body[0];
        if (marker === '+') {
          newLeft--;
          f.additions++;
        } else if (marker === '-') {
          oldLeft--;
          f.deletions++;
        } else if (marker === ' ' || body === '') {
          oldLeft--;
          newLeft--;
        }
      }
      continue;
    }
    if (line.startsWith('rename from ')) f.renameFrom = unquote(line.slice('rename from '.length));
    else if (line.startsWith('rename to ')) f.renameTo = unquote(line.slice('rename to '.length));
    else if (line.startsWith('copy to ')) f.created = true;
    else if (line.startsWith('new file mode ')) f.created = true;
    else if (line.startsWith('deleted file mode ')) f.deleted = true;
    else if (line === 'GIT binary patch') f.binary ??= { from: f.gitOld, to: f.gitNew };
    else {
      const binary = /^Binary files (.+) and (.+) differ$/.exec(line);
      if (binary) f.binary = { from: headerPath(binary[1] as string), to: headerPath(binary[2] as string) };
    }
  }
  if (current) finish(current, files);
  return files;
}

function finish(f: Pending, out: UnifiedDiffFile[]): void {
  const binaryOld = f.binary?.from;
  const binaryNew = f.binary?.to;
  const deleted = f.deleted || f.plus === null || binaryNew === null;
  const created = f.created || f.minus === null || binaryOld === null;
  const oldPath = f.renameFrom ?? f.minus ?? binaryOld ?? f.gitOld;
  const newPath = f.renameTo ?? f.plus ?? binaryNew ?? f.gitNew;
  const path = (deleted ? oldPath : newPath) ?? oldPath;
  if (!path) return;
  const renamed = !created && !deleted && oldPath !== undefined && oldPath !== null && oldPath !== path;
  const changeType: ChangeType = created ? 'added' : deleted ? 'deleted' : renamed ? 'renamed' : 'modified';
  const before = created ? '/dev/null' : `a/${oldPath ?? path}`;
  const after = deleted ? '/dev/null' : `b/${path}`;
  const diff = f.binary
    ? `Binary files ${before} and ${after} differ\n`
    : `--- ${before}\n+++ ${after}\n${f.hunks.map((l) => `${l}\n`).join('')}`;
  out.push({
    path,
    ...(renamed ? { previousPath: oldPath as string } : {}),
    changeType,
    isBinary: f.binary !== undefined,
    additions: f.additions,
    deletions: f.deletions,
    diff,
  });
}

/** `a/src/x.ts` → `src/x.ts`; `/dev/null` → `null`; a `diff -u` timestamp after a tab is dropped. */
function headerPath(raw: string): string | null | undefined {
  const value = unquote(raw.replace(/\t.*$/, '').trimEnd());
  if (value === '/dev/null') return null;
  return value.replace(/^[abciow12]\//, '') || undefined;
}

/** `a/x b/y` of a `diff --git` line; paths with spaces are split where both halves agree. */
function gitHeaderPaths(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*") (.+)$/.exec(rest);
    if (m) return [headerPath(m[1] as string) ?? '', headerPath(m[2] as string) ?? ''];
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.slice(2, half) === rest.slice(half + 3) && rest[half] === ' ') {
    const same = rest.slice(2, half);
    return [same, same];
  }
  const m = /^(\S+) (\S+)$/.exec(rest);
  return m ? [headerPath(m[1] as string) ?? '', headerPath(m[2] as string) ?? ''] : undefined;
}

const utf8 = new TextEncoder();

/** Git quotes paths with unusual characters C-style: `"a/caf\303\251.ts"`. */
function unquote(value: string): string {
  if (!(value.startsWith('"') && value.endsWith('"') && value.length >= 2)) return value;
  const bytes: number[] = [];
  const body = value.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\') {
      bytes.push(...utf8.encode(c));
      continue;
    }
    const next = body[i + 1] as string;
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}
