/**
 * Diff text in the port's shape (`FileDiff.text`): `--- a/old` / `+++ b/new` (or `/dev/null`), then
 * the `@@` hunks; a binary file is the single `Binary files … differ` line. Two sources: Forgejo's
 * own `GET /pulls/{index}.diff` (git's output for the whole pull request, split here per file) and,
 * where that cannot serve (an interdiff between two pushes, an older head), both file versions
 * diffed locally.
 */
import { structuredPatch } from 'diff';

/** One file's part of a `git diff`, in the port's shape, with what git's headers said about it. */
export interface GitDiffSection {
  oldPath: string | undefined;
  newPath: string | undefined;
  /** git's `rename from` / `rename to` headers named this a rename. */
  isRename: boolean;
  isBinary: boolean;
  text: string;
}

/**
 * Splits git's diff of many files into one section per file, keyed by the path in the head version
 * (a deleted file by its old path). A content line always starts with ` `, `+`, `-` or `\`, so a
 * line starting `diff --git ` is always a new file's header.
 */
export function splitGitDiff(text: string): Map<string, GitDiffSection> {
  const sections = new Map<string, GitDiffSection>();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let start = -1;
  const flush = (end: number) => {
    if (start < 0) return;
    const section = parseSection(lines.slice(start, end));
    const key = section.newPath ?? section.oldPath;
    if (key !== undefined) sections.set(key, section);
  };
  lines.forEach((line, i) => {
    if (line.startsWith('diff --git ')) {
      flush(i);
      start = i;
    }
  });
  flush(lines.length);
  return sections;
}

function parseSection(lines: readonly string[]): GitDiffSection {
  let oldPath: string | undefined;
  let newPath: string | undefined;
  let renameFrom: string | undefined;
  let renameTo: string | undefined;
  let created = false;
  let deleted = false;
  let isBinary = false;
  let hunksAt = lines.length;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('@@')) {
      hunksAt = i;
      break;
    }
    if (line.startsWith('rename from ')) renameFrom = unquote(line.slice(12));
    else if (line.startsWith('rename to ')) renameTo = unquote(line.slice(10));
    else if (line.startsWith('new file mode')) created = true;
    else if (line.startsWith('deleted file mode')) deleted = true;
    else if (line.startsWith('--- ')) oldPath = sidePath(line.slice(4), 'a/');
    else if (line.startsWith('+++ ')) newPath = sidePath(line.slice(4), 'b/');
    else if (line.startsWith('Binary files ') || line === 'GIT binary patch') isBinary = true;
  }
  const [gitOld, gitNew] = headerPaths(lines[0] ?? '');
  oldPath ??= created ? undefined : (renameFrom ?? gitOld);
  newPath ??= deleted ? undefined : (renameTo ?? gitNew);
  const oldName = oldPath === undefined ? '/dev/null' : `a/${oldPath}`;
  const newName = newPath === undefined ? '/dev/null' : `b/${newPath}`;
  const text = isBinary
    ? `Binary files ${oldName} and ${newName} differ\n`
    : `--- ${oldName}\n+++ ${newName}\n${lines
        .slice(hunksAt)
        .map((l) => `${l}\n`)
        .join('')}`;
  return { oldPath, newPath, isRename: renameFrom !== undefined, isBinary, text };
}

/** `a/src/x.ts` → `src/x.ts`; `/dev/null` → undefined; git's quoted form is unquoted first. */
function sidePath(raw: string, prefix: string): string | undefined {
  const name = unquote(raw.replace(/\t.*$/, ''));
  if (name === '/dev/null') return undefined;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/** The two paths of `diff --git a/x b/y`, where they can be told apart (always when both are equal). */
function headerPaths(line: string): [string | undefined, string | undefined] {
  const rest = line.slice('diff --git '.length);
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    const first = unquote(rest.slice(0, end + 1));
    const second = unquote(rest.slice(end + 2));
    return [strip(first, 'a/'), strip(second, 'b/')];
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.slice(0, half).slice(2) === rest.slice(half + 1).slice(2)) {
    const path = rest.slice(2, half);
    return [path, path];
  }
  return [undefined, undefined];
}

function strip(value: string, prefix: string): string {
  return value.startsWith(prefix) ? value.slice(prefix.length) : value;
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

const ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };

/** Git quotes paths with unusual bytes C-style: `"a/caf\303\251.md"`. */
export function unquote(value: string): string {
  if (!(value.startsWith('"') && value.endsWith('"') && value.length >= 2)) return value;
  const bytes: number[] = [];
  const inner = value.slice(1, -1);
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i] as string;
    if (ch !== '\\') {
      bytes.push(...new TextEncoder().encode(ch));
      continue;
    }
    const next = inner[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(inner.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

export interface LocalDiffInput {
  /** `undefined` where the file does not exist on that side. */
  oldPath: string | undefined;
  newPath: string | undefined;
  oldText: string;
  newText: string;
  isBinary?: boolean | undefined;
}

/** Past this many edits, or this long, a minimal diff is given up for one whole-file hunk. */
const MAX_EDIT_LENGTH = 10_000;
const DIFF_TIMEOUT_MS = 2_000;

/**
 * A unified diff of two file versions, as git would print it (3 lines of context, `\ No newline
 * at end of file`), computed without blocking the event loop.
 */
export async function diffVersions(input: LocalDiffInput): Promise<string> {
  const oldName = input.oldPath === undefined ? '/dev/null' : `a/${input.oldPath}`;
  const newName = input.newPath === undefined ? '/dev/null' : `b/${input.newPath}`;
  if (input.isBinary) return `Binary files ${oldName} and ${newName} differ\n`;
  const header = `--- ${oldName}\n+++ ${newName}\n`;
  if (input.oldText === input.newText) return header;
  const patch = await new Promise<ReturnType<typeof structuredPatch> | undefined>((resolve) => {
    structuredPatch(oldName, newName, input.oldText, input.newText, undefined, undefined, {
      context: 3,
      maxEditLength: MAX_EDIT_LENGTH,
      timeout: DIFF_TIMEOUT_MS,
      callback: resolve,
    });
  });
  if (!patch) return header + wholeFileHunk(input.oldText, input.newText);
  const out: string[] = [];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`);
    out.push(...hunk.lines);
  }
  return `${header}${out.join('\n')}\n`;
}

/** As git writes a side: an empty one names the line before it (`0,0`), a one-line one has no count. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}

function wholeFileHunk(oldText: string, newText: string): string {
  const side = (text: string, sign: string) => {
    if (text === '') return { lines: [] as string[], count: 0 };
    const complete = text.endsWith('\n');
    const lines = (complete ? text.slice(0, -1) : text).split('\n').map((l) => `${sign}${l}`);
    const count = lines.length;
    if (!complete) lines.push('\\ No newline at end of file');
    return { lines, count };
  };
  const before = side(oldText, '-');
  const after = side(newText, '+');
  const head = `@@ -${range(1, before.count)} +${range(1, after.count)} @@`;
  return `${[head, ...before.lines, ...after.lines].join('\n')}\n`;
}
