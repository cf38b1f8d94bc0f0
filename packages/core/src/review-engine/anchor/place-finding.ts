import { indexDiff } from '../diff/diff-index.js';
import { demote, type EngineFinding } from '../engine-finding.js';
import type { ProposedFinding } from '../output/review-answer.js';
import type { ShownFile } from '../pipeline/shown-file.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import { type AnchorableFile, type AnchorResult, anchorFinding, type PathResolver } from './anchor.js';

/**
 * The paths a chunk's findings may name: the chunk's files with only their shown hunks (a finding
 * anchors on what the model saw), laid over every changed file of the pull request, so a finding
 * about another changed file is not taken for invented.
 */
export function chunkResolver(shown: readonly ShownFile[], changed: PathResolver): PathResolver {
  return changed.with(
    shown.map((s): AnchorableFile => {
      const visible = { ...s.diff, hunks: s.diff.hunks.filter((h) => s.hunks.includes(h.index)) };
      return {
        path: s.planned.file.path,
        previousPath: s.planned.file.previousPath,
        deleted: false,
        index: indexDiff(s.planned.file.path, visible),
      };
    }),
  );
}

/** Where a chunk's findings are anchored, and where anchoring decisions are recorded. */
export interface ChunkAnchoring {
  resolver: PathResolver;
  shown: readonly ShownFile[];
  newId: () => string;
  pass: ProtocolPass;
}

/**
 * A model's proposed finding as the engine's finding, anchored (quote first) or moved to the pull
 * request level, or dropped with its reason. A drop, any anchor not found by its quote, and a
 * finding left on no line (with why: its quote matched no shown line, its number is far from the
 * diff) is an event.
 */
export function anchoredFinding(
  proposed: ProposedFinding,
  { resolver, shown, newId, pass }: ChunkAnchoring,
): EngineFinding {
  const finding: EngineFinding = {
    id: newId(),
    source: 'model',
    chunk: 0,
    proposed,
    category: proposed.category,
    severity: proposed.severity,
    confidence: proposed.confidence,
    title: proposed.title,
    message: proposed.message,
    suggestion: proposed.suggestion,
    path: null,
    enclosingSymbol: '',
    publication: 'published',
  };
  const placed = placeFinding(finding, proposed, resolver, shown);
  if (placed.kind === 'prLevel') {
    pass.event({
      kind: 'decision',
      name: 'finding.unanchored',
      eventCategory: 'filtering',
      body: { findingId: finding.id, reason: placed.reason, modelLine: proposed.startLine },
    });
  } else if (finding.publication === 'dropped') {
    pass.event({
      kind: 'decision',
      name: 'finding.dropped',
      eventCategory: 'filtering',
      body: { findingId: finding.id, reason: finding.reason, path: proposed.path },
    });
  } else if (finding.anchor && finding.anchor.method !== 'quote') {
    pass.event({
      kind: 'decision',
      name: 'finding.anchored',
      eventCategory: 'filtering',
      body: {
        findingId: finding.id,
        method: finding.anchor.method,
        line: finding.anchor.startLine,
        modelLine: proposed.startLine,
      },
    });
  }
  return finding;
}

/**
 * Anchors the finding as `proposed` says (again, when the verifier located its quote): its anchor
 * and path, the anchor's note in front of the message, and the enclosing symbol from its hunk.
 * Answers where it went.
 */
export function placeFinding(
  finding: EngineFinding,
  proposed: ProposedFinding,
  resolver: PathResolver,
  shown: readonly ShownFile[],
): AnchorResult {
  const placed = anchorFinding(proposed, resolver);
  finding.anchor = undefined;
  if (placed.kind === 'dropped') {
    finding.path = proposed.path;
    demote(finding, 'dropped', placed.reason);
    return placed;
  }
  if (placed.kind === 'prLevel') {
    finding.path = placed.path;
    return placed;
  }
  finding.anchor = placed.anchor;
  finding.path = placed.anchor.path;
  if (placed.anchor.note) finding.message = `${placed.anchor.note} ${finding.message}`;
  const diff = shown.find((s) => s.planned.file.path === placed.anchor.path)?.diff;
  const hunk = diff?.hunks.find((h) =>
    h.lines.some((l) =>
      placed.anchor.side === 'old'
        ? l.oldLine === placed.anchor.startLine && l.kind === 'removed'
        : l.newLine === placed.anchor.startLine,
    ),
  );
  finding.enclosingSymbol = hunk?.section ?? '';
  return placed;
}
