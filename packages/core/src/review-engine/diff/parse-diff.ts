/**
 * One file's unified diff (as `FileDiff.text` carries it: `git diff` without its `diff --git` line)
 * read into hunks and numbered lines. Everything the engine shows a model or anchors a finding on
 * comes from this one reading, so the numbers a model sees are the numbers comments are posted on.
 */

export type DiffLineKind = 'added' | 'removed' | 'context';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its marker and without a trailing `\r` (CRLF files diff with one). */
  text: string;
  /** Number in the base version; `null` for an added line. */
  oldLine: number | null;
  /** Number in the head version; `null` for a removed line. */
  newLine: number | null;
}

export interface DiffHunk {
  /** 0-based position of the hunk in the file. */
  index: number;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** The text git prints after the second `@@` (the enclosing function, when git found one). */
  section: string;
  lines: DiffLine[];
}

export interface ParsedDiff {
  /** Path on the base side; `undefined` for an added file. */
  oldPath: string | undefined;
  /** Path on the head side; `undefined` for a deleted file. */
  newPath: string | undefined;
  binary: boolean;
  hunks: DiffHunk[];
  /** Some line ended in `\r`: the file uses CRLF line ends. */
  crlf: boolean;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/** Reads a unified diff of one file. Lines outside hunks other than the headers are ignored. */
export function parseDiff(text: string): ParsedDiff {
  const parsed: ParsedDiff = { oldPath: undefined, newPath: undefined, binary: false, hunks: [], crlf: false };
  let hunk: DiffHunk | undefined;
  let oldNext = 0;
  let newNext = 0;
  let oldLeft = 0;
  let newLeft = 0;

  for (const raw of text.split('\n')) {
    const header = HUNK_HEADER.exec(raw);
    if (header) {
      const [, oldStart, oldCount, newStart, newCount, section] = header;
      hunk = {
        index: parsed.hunks.length,
        oldStart: Number(oldStart),
        oldCount: oldCount === undefined ? 1 : Number(oldCount),
        newStart: Number(newStart),
        newCount: newCount === undefined ? 1 : Number(newCount),
        section: (section ?? '').trim(),
        lines: [],
      };
      parsed.hunks.push(hunk);
      // A count of 0 names the line before the (empty) range: `-0,0` for an added file.
      oldNext = hunk.oldCount === 0 ? hunk.oldStart + 1 : hunk.oldStart;
      newNext = hunk.newCount === 0 ? hunk.newStart + 1 : hunk.newStart;
      oldLeft = hunk.oldCount;
      newLeft = hunk.newCount;
      continue;
    }
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      const marker = raw[0];
      if (marker === '\\') continue; // "\ No newline at end of file" belongs to the line before
      let line = raw.slice(1);
      if (line.endsWith('\r')) {
        line = line.slice(0, -1);
        parsed.crlf = true;
      }
      if (marker === '+' && newLeft > 0) {
        hunk.lines.push({ kind: 'added', text: line, oldLine: null, newLine: newNext++ });
        newLeft--;
      } else if (marker === '-' && oldLeft > 0) {
        hunk.lines.push({ kind: 'removed', text: line, oldLine: oldNext++, newLine: null });
        oldLeft--;
      } else if ((marker === ' ' || raw === '') && oldLeft > 0 && newLeft > 0) {
        // Some tools strip the space of an empty context line; its count still says it is one.
        hunk.lines.push({ kind: 'context', text: line, oldLine: oldNext++, newLine: newNext++ });
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    if (raw.startsWith('--- ')) parsed.oldPath = headerPath(raw.slice(4), 'a/');
    else if (raw.startsWith('+++ ')) parsed.newPath = headerPath(raw.slice(4), 'b/');
    else if (raw.startsWith('Binary files ') || raw.startsWith('GIT binary patch')) parsed.binary = true;
  }
  return parsed;
}

function headerPath(value: string, prefix: string): string | undefined {
  // git appends a tab and a timestamp in some modes; paths with spaces are kept whole.
  const path = value.split('\t')[0]?.trimEnd() ?? '';
  if (path === '/dev/null') return undefined;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** Added plus removed lines: the size of the change a reviewer reads. */
export function changedLineCount(diff: ParsedDiff): number {
  let n = 0;
  for (const hunk of diff.hunks) for (const line of hunk.lines) if (line.kind !== 'context') n++;
  return n;
}

/**
 * A hunk that only moves whitespace: what it removes equals what it adds once all whitespace is
 * taken out. Such hunks are dropped from what a model sees; a file with nothing else is
 * `formattingOnly`.
 */
export function isWhitespaceOnly(hunk: DiffHunk): boolean {
  let removed = '';
  let added = '';
  for (const line of hunk.lines) {
    if (line.kind === 'removed') removed += line.text.replace(/\s+/g, '');
    else if (line.kind === 'added') added += line.text.replace(/\s+/g, '');
  }
  return removed === added;
}
