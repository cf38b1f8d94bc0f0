import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The engine stays readable as its stages: no function grows past a screenful or two, and
 * `runReview` stays the list of the stages it runs. Measured on the source with the TypeScript
 * parser, from a function's first line (its signature, not the comment above it) to its closing brace.
 */
const MAX_FUNCTION_LINES = 150;
const MAX_RUN_REVIEW_LINES = 119;

const ENGINE_DIR = import.meta.dirname;

interface MeasuredFunction {
  /** Where it starts: the file (relative to review-engine/) and line. */
  at: string;
  name: string;
  lines: number;
}

/** Every function of a source file: declarations, methods, accessors, constructors, arrows and function expressions. */
function measureFunctions(source: ts.SourceFile): MeasuredFunction[] {
  const found: MeasuredFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionWithBody(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ at: `${source.fileName}:${start + 1}`, name: nameOf(node, source), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isFunctionWithBody(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)) &&
    node.body !== undefined
  );
}

/** The function's own name, or the name it is assigned to; `<anonymous>` for a callback. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const { parent } = node;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return '<anonymous>';
}

/** Module names a source imports or re-exports from, statically, as a type, or with `import()`. */
function importsOf(source: ts.SourceFile): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) names.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier)) names.push(specifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const { literal } = node.argument;
      if (ts.isStringLiteral(literal)) names.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

const parse = (fileName: string, text: string) =>
  ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

const describeOffender = (f: MeasuredFunction) => `${f.name} at ${f.at}: ${f.lines} lines`;

describe('the shape of the review engine', () => {
  /** Every TypeScript file under review-engine/, named relative to it. */
  let files: ts.SourceFile[] = [];
  let functions: MeasuredFunction[] = [];
  beforeAll(() => {
    files = readdirSync(ENGINE_DIR, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .sort()
      .map((file) => parse(file.split('\\').join('/'), readFileSync(join(ENGINE_DIR, file), 'utf8')));
    functions = files.filter((f) => !f.fileName.endsWith('.test.ts')).flatMap(measureFunctions);
  }, 60_000);

  it(`has no function over ${MAX_FUNCTION_LINES} lines (tests aside)`, () => {
    expect(functions.length).toBeGreaterThan(100);
    const offenders = functions.filter((f) => f.lines > MAX_FUNCTION_LINES).map(describeOffender);
    expect(offenders, `functions over ${MAX_FUNCTION_LINES} lines`).toEqual([]);
  });

  it(`keeps runReview under ${MAX_RUN_REVIEW_LINES + 1} lines: the list of its stages and the early exits`, () => {
    const runReview = functions.filter((f) => f.name === 'runReview');
    expect(runReview, 'one runReview').toHaveLength(1);
    const offenders = runReview.filter((f) => f.lines > MAX_RUN_REVIEW_LINES).map(describeOffender);
    expect(offenders, `runReview at ${MAX_RUN_REVIEW_LINES + 1} lines or more`).toEqual([]);
  });

  it('owns its contract: nothing in review-engine/ imports from reviewing/', () => {
    const importers = files
      .filter((source) => importsOf(source).some((name) => /(^|\/)reviewing(\/|$)/.test(name)))
      .map((source) => source.fileName);
    expect(importers).toEqual([]);
  });

  it('measures every kind of function from its first line to its closing brace, and names it', () => {
    const fn = (open: string, lines: number, close: string) =>
      [open, ...Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`), close].join('\n');
    const sample = parse(
      'sample.ts',
      [
        '/** A comment above a function is not part of it. */',
        fn('export function declared(): void {', 151, '}'),
        fn('class Holder {\n  method(): void {', 151, '  }\n}'),
        fn('const arrow = () => {', 150, '};'),
        fn('const handlers = { onEvent: function () {', 3, '} };'),
        fn('call(async () => {', 2, '});'),
      ].join('\n'),
    );
    const measured = measureFunctions(sample);
    expect(measured.map((f) => [f.name, f.lines])).toEqual([
      ['declared', 151],
      ['method', 151],
      ['arrow', 150],
      ['onEvent', 3],
      ['<anonymous>', 2],
    ]);
    expect(measured.filter((f) => f.lines > MAX_FUNCTION_LINES).map(describeOffender)).toEqual([
      'declared at sample.ts:2: 151 lines',
      'method at sample.ts:154: 151 lines',
    ]);
  });

  it('finds imports of reviewing/ however they are written', () => {
    const sample = parse(
      'sample.ts',
      [
        "import type { A } from '../reviewing/index.js';",
        "export { B } from '../../reviewing/job-record.js';",
        "type C = import('../reviewing/index.js').C;",
        "const d = await import('../reviewing/index.js');",
        "import { e } from '../reviewing-notes.js';",
      ].join('\n'),
    );
    expect(importsOf(sample)).toEqual([
      '../reviewing/index.js',
      '../../reviewing/job-record.js',
      '../reviewing/index.js',
      '../reviewing/index.js',
      '../reviewing-notes.js',
    ]);
  });
});
