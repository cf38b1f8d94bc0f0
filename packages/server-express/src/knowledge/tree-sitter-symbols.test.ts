import { lineSymbolExtractor } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { treeSitterSymbolExtractor } from './tree-sitter-symbols.js';

const extractor = treeSitterSymbolExtractor(lineSymbolExtractor);
const brief = async (path: string, text: string) =>
  (await extractor.extract(path, text))?.map((s) => [s.kind, s.name, s.container, s.line, s.endLine]);

describe('tree-sitter symbols', () => {
  it('parses TypeScript: functions, classes and their methods, interfaces, types, arrow functions', async () => {
    const text = [
      'export interface Options { retries: number }',
      'export type Id = string;',
      'export const parse = (raw: string) => raw.trim();',
      'export class Uploader {',
      '  upload(file: string) {',
      '    return file;',
      '  }',
      '}',
      'export async function retryWithBackoff() {}',
    ].join('\n');
    expect(await brief('src/a.ts', text)).toEqual([
      ['interface', 'Options', null, 1, 1],
      ['type', 'Id', null, 2, 2],
      ['function', 'parse', null, 3, 3],
      ['class', 'Uploader', null, 4, 8],
      ['method', 'upload', 'Uploader', 5, 7],
      ['function', 'retryWithBackoff', null, 9, 9],
    ]);
    const [, , , cls] = (await extractor.extract('src/a.ts', text)) ?? [];
    expect(cls?.signature).toBe('class Uploader');
  });

  it('parses Python, Go, Java and C#', async () => {
    expect(
      await brief(
        'a.py',
        'class Renderer:\n    def render(self):\n        return 1\n\ndef total(xs):\n    return sum(xs)\n',
      ),
    ).toEqual([
      ['class', 'Renderer', null, 1, 3],
      ['method', 'render', 'Renderer', 2, 3],
      ['function', 'total', null, 5, 6],
    ]);
    expect(
      await brief(
        'main.go',
        'package main\n\ntype Server struct{}\n\nfunc (s *Server) Listen() error {\n\treturn nil\n}\n\nfunc main() {}\n',
      ),
    ).toEqual([
      ['struct', 'Server', null, 3, 3],
      ['method', 'Listen', 'Server', 5, 7],
      ['function', 'main', null, 9, 9],
    ]);
    expect(await brief('A.java', 'public class Invoice {\n  public int total() { return 1; }\n}\n')).toEqual([
      ['class', 'Invoice', null, 1, 3],
      ['method', 'total', 'Invoice', 2, 2],
    ]);
    expect(
      await brief(
        'A.cs',
        'namespace Billing {\n  public record Line(int Amount);\n  public interface IRenderer { void Render(); }\n}\n',
      ),
    ).toEqual([
      ['record', 'Line', null, 2, 2],
      ['interface', 'IRenderer', null, 3, 3],
      ['method', 'Render', 'IRenderer', 3, 3],
    ]);
  });

  it('falls back to line patterns without a grammar, and knows nothing of prose', async () => {
    expect(await brief('Main.scala', 'object Main {\n  class Inner\n}\n')).toEqual(
      (await lineSymbolExtractor.extract('Main.scala', 'object Main {\n  class Inner\n}\n'))?.map((s) => [
        s.kind,
        s.name,
        s.container,
        s.line,
        s.endLine,
      ]),
    );
    expect(await extractor.extract('README.md', '# Title\n')).toBeUndefined();
  });
});
