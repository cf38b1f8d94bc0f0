import { createRequire } from 'node:module';
import type { IndexSymbolInput, SymbolExtractor } from '@margin/core/spec';
import { Language, type Node, Parser, Query } from 'web-tree-sitter';

/** Grammar file (from `tree-sitter-wasms`) by file extension. */
const GRAMMARS: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  java: 'java',
  cs: 'c_sharp',
  rs: 'rust',
  kt: 'kotlin',
  rb: 'ruby',
  php: 'php',
};

/** Syntax node type → symbol kind, across the grammars above. */
const KINDS: Record<string, string> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_definition: 'function',
  function_item: 'function',
  method_definition: 'method',
  method_declaration: 'method',
  method: 'method',
  constructor_declaration: 'constructor',
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  class_definition: 'class',
  class: 'class',
  interface_declaration: 'interface',
  trait_item: 'trait',
  struct_declaration: 'struct',
  struct_item: 'struct',
  enum_declaration: 'enum',
  enum_item: 'enum',
  record_declaration: 'record',
  type_alias_declaration: 'type',
  module: 'module',
};
/** Definitions whose members name them as container. */
const CONTAINERS = new Set(['class', 'interface', 'struct', 'trait', 'enum', 'record', 'module']);
const SIGNATURE_CHARS = 200;

/** Works in the ESM and the CommonJS build alike. */
const requireHere = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);

/**
 * Definitions from a real parse: tree-sitter grammars compiled to WebAssembly (`web-tree-sitter`,
 * grammars from `tree-sitter-wasms`), loaded once per language on first use. A language without a
 * grammar, or one that fails to load, goes to `fallback` (the built-in line patterns).
 */
export function treeSitterSymbolExtractor(fallback: SymbolExtractor): SymbolExtractor {
  let ready: Promise<void> | undefined;
  const parsers = new Map<string, Promise<{ parser: Parser; query: Query } | undefined>>();
  const parserFor = (grammar: string) => {
    let found = parsers.get(grammar);
    if (!found) {
      found = (async () => {
        ready ??= Parser.init();
        await ready;
        try {
          const language = await Language.load(
            requireHere.resolve(`tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`),
          );
          const parser = new Parser();
          parser.setLanguage(language);
          // Only the node types this grammar has: a query naming another one does not compile.
          const types = [...NAMED_BY].filter((type) => language.idForNodeType(type, true) !== null);
          return { parser, query: new Query(language, `[${types.map((t) => `(${t})`).join(' ')}] @node`) };
        } catch {
          return undefined;
        }
      })();
      parsers.set(grammar, found);
    }
    return found;
  };

  return {
    async extract(path, text) {
      const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
      const grammar = GRAMMARS[extension];
      const loaded = grammar ? await parserFor(grammar) : undefined;
      if (!loaded) return fallback.extract(path, text);
      const tree = loaded.parser.parse(text);
      if (!tree) return fallback.extract(path, text);
      try {
        return definitions(loaded.query.captures(tree.rootNode), text);
      } finally {
        tree.delete();
      }
    },
  };
}

/** Node types `symbolOf` can name, or that hold definitions (Rust's `impl`). */
const NAMED_BY = new Set([...Object.keys(KINDS), 'type_spec', 'variable_declarator', 'impl_item']);

/**
 * The definitions among the nodes a query found, in document order, each with the container around
 * it: the nearest enclosing container definition (or `impl` block). The query runs inside
 * WebAssembly; walking the tree from JavaScript crossed into it several times per node.
 */
function definitions(captures: ReadonlyArray<{ node: Node }>, text: string): IndexSymbolInput[] {
  const out: IndexSymbolInput[] = [];
  /** Enclosing containers, innermost last, with where each ends. */
  const open: Array<{ end: number; name: string | null }> = [];
  for (const { node } of captures) {
    while (open.length > 0 && (open.at(-1)?.end ?? 0) <= node.startIndex) open.pop();
    const container = open.at(-1)?.name ?? null;
    let inner = container;
    const found = symbolOf(node, text, container);
    if (found) {
      out.push(found);
      if (CONTAINERS.has(found.kind)) inner = found.name;
    }
    if (node.type === 'impl_item') inner = node.childForFieldName('type')?.text ?? inner;
    if (inner !== container) open.push({ end: node.endIndex, name: inner });
  }
  return out;
}

function symbolOf(node: Node, text: string, container: string | null): IndexSymbolInput | undefined {
  let kind = KINDS[node.type];
  let name = node.childForFieldName('name')?.text;
  let owner = container;
  if (node.type === 'method_declaration' && node.childForFieldName('receiver')) {
    // Go: `func (s *Server) Listen()` belongs to Server.
    owner = node.childForFieldName('receiver')?.descendantsOfType('type_identifier')[0]?.text ?? container;
  }
  if (node.type === 'type_spec') {
    const type = node.childForFieldName('type')?.type;
    kind = type === 'struct_type' ? 'struct' : type === 'interface_type' ? 'interface' : 'type';
  }
  if (node.type === 'variable_declarator') {
    const value = node.childForFieldName('value')?.type;
    if (value === 'arrow_function' || value === 'function_expression' || value === 'function') kind = 'function';
  }
  if (!kind || !name) return undefined;
  if (kind === 'function' && owner && node.type !== 'variable_declarator') kind = 'method';
  name = name.slice(0, 300);
  // The node's first line, cut from the source (`node.text` would copy the whole definition).
  const lineEnd = text.indexOf('\n', node.startIndex);
  const firstLine = text.slice(node.startIndex, lineEnd < 0 ? node.endIndex : Math.min(lineEnd, node.endIndex));
  return {
    name,
    kind,
    container: owner,
    signature:
      firstLine
        .trim()
        .replace(/\s*\{\s*$/, '')
        .slice(0, SIGNATURE_CHARS) || null,
    line: node.startPosition.row + 1,
    endLine: node.endPosition.row + 1,
  };
}
