import type { ParsedDiff } from '../diff/parse-diff.js';
import { type RenderFileInput, renderFileDiff } from '../diff/render-diff.js';
import type { PackedChunk } from '../plan/pack-chunks.js';
import type { PlannedFile } from './prepare-files.js';

/** A file as one chunk shows it to a model: the planned file, the hunks shown and its (redacted) diff. */
export interface ShownFile {
  planned: PlannedFile;
  hunks: number[];
  diff: ParsedDiff;
}

/** The chunk's files, in the chunk's order. Their diffs are still held: a file's is let go after its last chunk. */
export function showChunk(chunk: PackedChunk, files: ReadonlyMap<number, PlannedFile>): ShownFile[] {
  return chunk.parts.map((part) => {
    const planned = files.get(part.fileId) as PlannedFile;
    return { planned, hunks: part.hunks, diff: planned.diff as ParsedDiff };
  });
}

/** What `renderFileDiff` renders of a shown file: its header and its shown hunks. */
export function renderInput(s: ShownFile): RenderFileInput {
  return {
    path: s.planned.file.path,
    previousPath: s.planned.file.previousPath,
    changeType: s.planned.file.changeType,
    diff: s.diff,
    hunks: s.hunks,
  };
}

export const renderShown = (s: ShownFile): string => renderFileDiff(renderInput(s));
