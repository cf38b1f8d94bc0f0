import { FINDING_CATEGORIES, type FindingView, type Severity } from '@margin/core';
import cliPackage from '../../package.json' with { type: 'json' };
import { reportedFindings } from './fail-on.js';
import type { ReviewReport } from './report.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  suggestion: 'note',
  info: 'note',
};

const RULE_TEXT: Record<string, string> = {
  bug: 'A defect: wrong results, crashes or lost data on a realistic path.',
  security: 'A security weakness: injection, exposure of data or credentials, broken access control.',
  performance: 'Needless work that grows with input: repeated queries, quadratic loops, blocking calls.',
  concurrency: 'Races, deadlocks and unsafe sharing between threads, tasks or requests.',
  'error-handling': 'Errors swallowed, misreported or left to crash the caller.',
  'api-contract': 'A change that breaks what callers of an interface rely on.',
  maintainability: 'Code that is correct but hard to change safely.',
  tests: 'Tests that do not test what they claim.',
  docs: 'Documentation that contradicts the code.',
};

export const ruleIdOf = (category: string) => `margin/${category}`;

/**
 * SARIF 2.1.0 for code-scanning tools: one rule per finding category, `level` from severity,
 * `partialFingerprints` from the finding's fingerprint (stable across rewording and line shifts,
 * so an alert follows its finding from push to push), and regions on the new file. Findings on
 * removed lines, or about the pull request as a whole, carry the file (or no location) without a
 * region: the new file has no line for them.
 */
export function formatSarif(report: ReviewReport): string {
  const findings = reportedFindings(report.review.findings);
  const rules = FINDING_CATEGORIES.map((category) => ({
    id: ruleIdOf(category),
    name: category.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase()),
    shortDescription: { text: RULE_TEXT[category] ?? category },
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Margin',
            semanticVersion: cliPackage.version,
            rules,
          },
        },
        automationDetails: { id: `margin/${report.model}/` },
        results: findings.map((f) => result(f)),
        properties: { model: report.model, target: report.target, partial: report.review.partial },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function result(f: FindingView) {
  const category = (FINDING_CATEGORIES as readonly string[]).includes(f.category) ? f.category : 'maintainability';
  const places = f.places ?? (f.filePath ? [{ path: f.filePath, line: f.side === 'old' ? null : f.startLine }] : []);
  return {
    ruleId: ruleIdOf(category),
    ruleIndex: FINDING_CATEGORIES.indexOf(category as (typeof FINDING_CATEGORIES)[number]),
    level: LEVEL[f.severity],
    message: { text: `${f.title}: ${f.message}` },
    locations: places.map((p, i) => ({
      physicalLocation: {
        artifactLocation: { uri: encodeURI(p.path), uriBaseId: '%SRCROOT%' },
        ...(p.line
          ? {
              region: {
                startLine: p.line,
                ...(i === 0 && !f.places && f.endLine && f.endLine > p.line ? { endLine: f.endLine } : {}),
              },
            }
          : {}),
      },
    })),
    partialFingerprints: { 'marginFindingFingerprint/v1': f.fingerprint },
    properties: {
      severity: f.severity,
      confidence: f.confidence,
      publication: f.publication,
      ...(f.reason ? { reason: f.reason } : {}),
    },
  };
}
