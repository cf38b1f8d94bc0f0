import type { IndexSymbolInput } from './index-records.js';

/**
 * Finds a file's definitions. Behind this interface so a parser-based extractor (tree-sitter) can
 * replace the built-in line-pattern one without the indexer noticing.
 */
export interface SymbolExtractor {
  /** The definitions of the file, or `undefined` when its language is not one the extractor knows. */
  extract(path: string, text: string): Promise<IndexSymbolInput[] | undefined>;
}

interface Pattern {
  re: RegExp;
  kind: string;
  /** Group holding the name. */
  name: number;
  /** Group holding the container (Go's receiver type). */
  container?: number;
  /** Only inside a container (methods), or only at the top. */
  where?: 'inside' | 'top';
}

const CONTAINER_KINDS = new Set(['class', 'interface', 'struct', 'trait', 'enum', 'record', 'impl']);
const NOT_A_NAME = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'new',
  'else',
  'do',
  'try',
  'using',
  'lock',
  'foreach',
  'constructor',
]);
const SIGNATURE_CHARS = 200;

const C_LIKE_MODIFIERS =
  '(?:(?:public|private|protected|internal|static|final|abstract|sealed|override|virtual|async|partial|readonly|synchronized|extern|unsafe|new)\\s+)*';

const LANGUAGES: Array<{ extensions: string[]; patterns: Pattern[] }> = [
  {
    extensions: ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'],
    patterns: [
      {
        re: /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/,
        kind: 'function',
        name: 1,
      },
      { re: /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/, kind: 'class', name: 1 },
      { re: /^\s*(?:export\s+)?(?:declare\s+)?interface\s+([A-Za-z_$][\w$]*)/, kind: 'interface', name: 1 },
      { re: /^\s*(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)\s*(?:<[^=]*>)?\s*=/, kind: 'type', name: 1 },
      { re: /^\s*(?:export\s+)?(?:const\s+|declare\s+)?enum\s+([A-Za-z_$][\w$]*)/, kind: 'enum', name: 1 },
      {
        re: /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/,
        kind: 'function',
        name: 1,
      },
      { re: /^\s*(?:export\s+)?const\s+([A-Z][A-Z0-9_]+)\s*(?::[^=]+)?=/, kind: 'constant', name: 1, where: 'top' },
      {
        re: /^\s+(?:(?:public|private|protected|static|readonly|override|abstract|async|get|set)\s+)*\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^;]*$/,
        kind: 'method',
        name: 1,
        where: 'inside',
      },
    ],
  },
  {
    extensions: ['py', 'pyi'],
    patterns: [
      { re: /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, kind: 'function', name: 1 },
      { re: /^\s*class\s+([A-Za-z_]\w*)/, kind: 'class', name: 1 },
    ],
  },
  {
    extensions: ['go'],
    patterns: [
      {
        re: /^func\s+\(\s*\w*\s*\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*([A-Za-z_]\w*)/,
        kind: 'method',
        name: 2,
        container: 1,
      },
      { re: /^func\s+([A-Za-z_]\w*)/, kind: 'function', name: 1 },
      { re: /^type\s+([A-Za-z_]\w*)(?:\[[^\]]*\])?\s+struct\b/, kind: 'struct', name: 1 },
      { re: /^type\s+([A-Za-z_]\w*)(?:\[[^\]]*\])?\s+interface\b/, kind: 'interface', name: 1 },
      { re: /^type\s+([A-Za-z_]\w*)\s/, kind: 'type', name: 1 },
    ],
  },
  {
    extensions: ['java', 'cs', 'kt', 'scala'],
    patterns: [
      {
        re: new RegExp(
          `^\\s*${C_LIKE_MODIFIERS}(?:data\\s+)?(class|interface|enum|record|struct|object)\\s+([A-Za-z_]\\w*)`,
        ),
        kind: 'class',
        name: 2,
      },
      {
        re: new RegExp(
          `^\\s+${C_LIKE_MODIFIERS}(?:fun\\s+)?(?:[\\w<>\\[\\],.?]+\\s+)?([A-Za-z_]\\w*)\\s*(?:<[^>]*>)?\\s*\\([^;]*$`,
        ),
        kind: 'method',
        name: 1,
        where: 'inside',
      },
    ],
  },
  {
    extensions: ['rs'],
    patterns: [
      { re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+([A-Za-z_]\w*)/, kind: 'function', name: 1 },
      { re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(struct|enum|trait)\s+([A-Za-z_]\w*)/, kind: 'struct', name: 2 },
      { re: /^\s*impl(?:<[^>]*>)?\s+(?:[\w:]+\s+for\s+)?([A-Za-z_]\w*)/, kind: 'impl', name: 1 },
    ],
  },
];

const BY_EXTENSION = new Map(LANGUAGES.flatMap((l) => l.extensions.map((e) => [e, l.patterns] as const)));

const indentOf = (line: string) => (line.match(/^\s*/)?.[0] ?? '').replace(/\t/g, '    ').length;

/**
 * The built-in extractor: definitions found line by line with each language's patterns (TypeScript
 * and JavaScript, Python, Go, Java, C#, Kotlin, Rust). A definition ends before the next line
 * indented no deeper than it that starts another definition or closes its block; a method's
 * container is the class around it by indentation (Go: the receiver type).
 */
export const lineSymbolExtractor: SymbolExtractor = {
  async extract(path, text) {
    const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    const patterns = BY_EXTENSION.get(extension);
    if (!patterns) return undefined;
    const lines = text.split(/\r?\n/);
    const found: Array<IndexSymbolInput & { indent: number }> = [];
    const open: Array<{ name: string; indent: number; kind: string }> = [];
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      const indent = indentOf(line);
      while (open.length > 0 && (open.at(-1)?.indent ?? 0) >= indent) open.pop();
      const around = open.at(-1);
      for (const p of patterns) {
        if (p.where === 'inside' && !around) continue;
        if (p.where === 'top' && around) continue;
        const m = p.re.exec(line);
        const name = m?.[p.name];
        if (!m || !name || NOT_A_NAME.has(name)) continue;
        const kind = p.kind === 'class' && m[1] && /^(interface|enum|record|struct)$/.test(m[1]) ? m[1] : p.kind;
        const container = p.container !== undefined ? (m[p.container] ?? null) : (around?.name ?? null);
        found.push({
          name,
          kind: container && kind === 'function' ? 'method' : kind,
          container,
          signature: line
            .trim()
            .replace(/\s*\{\s*$/, '')
            .slice(0, SIGNATURE_CHARS),
          line: i + 1,
          endLine: i + 1,
          indent,
        });
        if (CONTAINER_KINDS.has(kind) || kind === 'class') open.push({ name, indent, kind });
        break;
      }
    });
    // Ends: before the next non-blank line at the same or a shallower indent (a closing brace stays in).
    for (const s of found) {
      let end = lines.length;
      for (let j = s.line; j < lines.length; j++) {
        const l = lines[j] ?? '';
        if (l.trim() === '') continue;
        if (indentOf(l) <= s.indent) {
          end = /^\s*[}\])]/.test(l) || /^\s*end\b/.test(l) ? j + 1 : j;
          break;
        }
      }
      while (end > s.line && (lines[end - 1] ?? '').trim() === '') end--;
      s.endLine = Math.max(s.line, end);
    }
    return found.map(({ indent: _indent, ...s }) => s);
  },
};
