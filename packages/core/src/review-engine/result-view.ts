import type { CoverageManifest } from './coverage.js';
import type { EngineFinding } from './engine-finding.js';

/**
 * A finding as the job status shows it (decisions.md, Reviewing), with the fields that answer
 * "why": publication and reason, the anchor method, the verifier's score, the places of a
 * finding standing for several, how many thorough-mode samples agreed on it, and the knowledge
 * results it relies on.
 */
export function findingView(f: EngineFinding) {
  return {
    id: f.id,
    fingerprint: f.keys?.fingerprint ?? f.id,
    filePath: f.anchor?.path ?? f.path,
    startLine: f.anchor?.startLine ?? null,
    endLine: f.anchor?.endLine ?? null,
    ...(f.anchor?.side === 'old' ? { side: 'old' as const } : {}),
    severity: f.severity,
    confidence: f.confidence,
    category: f.category,
    title: f.title,
    message: f.message,
    ...(f.suggestion ? { suggestion: f.suggestion } : {}),
    publication: f.publication,
    ...(f.reason ? { reason: f.reason } : {}),
    ...(f.providerThreadId ? { providerThreadId: f.providerThreadId } : {}),
    ...(f.memoryId ? { memoryId: f.memoryId } : {}),
    source: f.source,
    ...(f.anchor ? { anchorMethod: f.anchor.method, scope: f.anchor.scope } : {}),
    ...(f.verdict ? { verifierScore: f.verdict.score } : {}),
    ...(f.places ? { places: f.places } : {}),
    ...(f.consensus ? { consensus: f.consensus } : {}),
    ...(f.citations && f.citations.length > 0 ? { citations: f.citations } : {}),
  };
}

export type FindingView = ReturnType<typeof findingView>;

export interface ReviewResultView {
  summary: string | null;
  findings: FindingView[];
  coverage: CoverageManifest;
  /** Some changed file was not fully reviewed (failed, partial, or past a listing cap). */
  partial: boolean;
}

export function resultView(
  summary: string | null,
  findings: readonly EngineFinding[],
  coverage: CoverageManifest,
): ReviewResultView {
  return { summary, findings: findings.map(findingView), coverage, partial: !coverage.complete };
}
