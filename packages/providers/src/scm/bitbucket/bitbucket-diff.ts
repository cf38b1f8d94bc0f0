import type { ChangedFile } from '@margin/core/spec';
import { withFileHeaders } from '../shared/index.js';

/** One file's section of `git diff` output. */
interface GitDiffSection {
  oldPath: string | undefined;
  newPath: string | undefined;
  /** `Binary files … differ`, when git printed it instead of hunks. */
  binaryLine: string | undefined;
  /** From the first `@@` to the end of the section, newline-terminated; empty for none. */
  hunks: string;
}

/**
 * Bitbucket's `/diff` answer is `git diff` output: a `diff --git a/x b/y` line per file, extended
 * headers (`index`, `new file mode`, `deleted file mode`, `similarity index`, `rename from`/`to`,
 * `old mode`/`new mode`), then `---`/`+++` and the hunks; a pure rename has no `---`/`+++` at all.
 * This keeps the section of one file, as the port's `FileDiff.text` wants it: `---`/`+++` (always
 * present) and the hunks, or git's single `Binary files … differ` line.
 */
export function fileDiffFromGit(gitDiff: string, file: ChangedFile): string {
  const sections = splitSections(gitDiff).map(readSection);
  const previous = file.previousPath ?? file.path;
  const section =
    sections.find((s) => s.newPath === file.path) ??
    sections.find((s) => s.newPath === undefined && s.oldPath === file.path) ??
    sections.find((s) => s.oldPath === previous);
  if (!section) {
    // Nothing differs (Bitbucket answers an empty body): headers alone, like a pure rename.
    return withFileHeaders(
      '',
      file.changeType === 'added' ? undefined : previous,
      file.changeType === 'deleted' ? undefined : file.path,
    );
  }
  if (section.binaryLine) return `${section.binaryLine}\n`;
  return withFileHeaders(section.hunks, section.oldPath, section.newPath);
}

function splitSections(text: string): string[][] {
  const sections: string[][] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) sections.push([line]);
    else sections.at(-1)?.push(line);
  }
  return sections;
}

function readSection(lines: string[]): GitDiffSection {
  const fromGitLine = pathsOfGitLine(lines[0] ?? '');
  let oldPath: string | undefined = fromGitLine?.[0];
  let newPath: string | undefined = fromGitLine?.[1];
  let binaryLine: string | undefined;
  let hunkStart = lines.length;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('@@')) {
      hunkStart = i;
      break;
    }
    if (line.startsWith('Binary files ')) binaryLine = line;
    else if (line.startsWith('rename from ')) oldPath = unquote(line.slice('rename from '.length));
    else if (line.startsWith('rename to ')) newPath = unquote(line.slice('rename to '.length));
    else if (line.startsWith('new file mode')) oldPath = undefined;
    else if (line.startsWith('deleted file mode')) newPath = undefined;
    else if (line.startsWith('--- ')) oldPath = sidePath(line.slice(4), 'a/');
    else if (line.startsWith('+++ ')) newPath = sidePath(line.slice(4), 'b/');
  }
  const body = lines.slice(hunkStart);
  // The empty string after the section's final newline is not a line of the diff.
  while (body.length > 0 && body.at(-1) === '') body.pop();
  return { oldPath, newPath, binaryLine, hunks: body.length > 0 ? `${body.join('\n')}\n` : '' };
}

/** `diff --git a/src/x.ts b/src/y.ts` → both paths; ambiguous names with spaces are left to later headers. */
function pathsOfGitLine(line: string): [string, string] | undefined {
  const rest = line.slice('diff --git '.length);
  const quoted = /^("a\/(?:[^"\\]|\\.)*") ("b\/(?:[^"\\]|\\.)*")$/.exec(rest);
  if (quoted?.[1] !== undefined && quoted[2] !== undefined) {
    return [unquote(quoted[1]).slice(2), unquote(quoted[2]).slice(2)];
  }
  const plain = /^a\/(\S+) b\/(\S+)$/.exec(rest);
  return plain?.[1] !== undefined && plain[2] !== undefined ? [plain[1], plain[2]] : undefined;
}

function sidePath(value: string, prefix: 'a/' | 'b/'): string | undefined {
  const path = unquote(value.replace(/\t.*$/, ''));
  if (path === '/dev/null') return undefined;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Git C-quotes a path with special characters: `"a/caf\303\251 \"x\".md"` → `a/café "x".md`. */
function unquote(value: string): string {
  if (!(value.length >= 2 && value.startsWith('"') && value.endsWith('"'))) return value;
  const bytes: number[] = [];
  const body = value.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 3;
    } else {
      const next = body[i + 1] ?? '';
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
