import { demote, type EngineFinding } from '../engine-finding.js';
import type { ShownFile } from '../pipeline/shown-file.js';

const DEFINITION = (symbol: string) =>
  new RegExp(
    `\\b(?:function|const|let|var|class|def|func|interface|type|enum|struct|import)\\b[^\\n]*\\b${escapeRegExp(symbol)}\\b`,
  );

/**
 * Deterministic checks of what a finding claims, against the code the review saw: "unused" when
 * the symbol appears on another shown line, "undefined" when a definition or import of it is shown,
 * "missing file" when the file is part of the change. A refuted finding is dropped, and so are
 * siblings in the same file naming the same symbol.
 */
export function refuteClaims(
  findings: readonly EngineFinding[],
  shown: readonly ShownFile[],
  changed: ReadonlyArray<{ path: string }>,
): void {
  const refutedSymbols = new Map<string, Set<string>>();
  for (const f of findings) {
    const { kind, symbol, path } = f.proposed.claim;
    let refuted = false;
    if ((kind === 'unused' || kind === 'undefined') && symbol) {
      const word = new RegExp(`\\b${escapeRegExp(symbol)}\\b`);
      for (const s of shown) {
        for (const hunk of s.diff.hunks) {
          for (const line of hunk.lines) {
            if (line.kind === 'removed') continue;
            const own =
              f.anchor &&
              s.planned.file.path === f.anchor.path &&
              line.newLine !== null &&
              line.newLine >= f.anchor.startLine &&
              line.newLine <= f.anchor.endLine;
            if (kind === 'unused' && !own && word.test(line.text)) refuted = true;
            if (kind === 'undefined' && DEFINITION(symbol).test(line.text)) refuted = true;
          }
        }
      }
    }
    if (kind === 'missing-file' && path)
      refuted = changed.some((c) => c.path.toLowerCase() === path.replace(/^\.?\//, '').toLowerCase());
    if (refuted && demote(f, 'dropped', 'refuted') && symbol && f.path) {
      const set = refutedSymbols.get(f.path) ?? new Set();
      set.add(symbol);
      refutedSymbols.set(f.path, set);
    }
  }
  for (const f of findings) {
    const symbols = f.path ? refutedSymbols.get(f.path) : undefined;
    if (symbols && [...symbols].some((s) => f.message.includes(`\`${s}\``))) demote(f, 'dropped', 'refuted');
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
