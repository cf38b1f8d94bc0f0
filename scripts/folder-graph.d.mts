/** Types of folder-graph.mjs, for the architecture tests that read the graph. */
export interface CrossingImport {
  /** The top-level folder or root file the import is written in, and the one it reaches. */
  from: string;
  to: string;
  /** Relative to the source root. */
  file: string;
  specifier: string;
  /** The file imported, relative to the source root (`.js` read as `.ts`). */
  target: string;
  /** Written in a test or in test support (a provider fake): may reach anything. */
  test: boolean;
}
export function nodeOf(src: string, file: string): string;
export function readImports(src: string): CrossingImport[];
export function folderGraph(src: string): Map<string, Set<string>>;
export function layersOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[];
