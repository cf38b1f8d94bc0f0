#!/usr/bin/env node
// The folder graph of a package's sources: which top-level folder (capability) imports which,
// counting every import, re-export, type import and dynamic import. `pnpm deps` prints it; the
// architecture tests check it against their tables. Usage: node scripts/folder-graph.mjs [src ...]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Tests and providers' HTTP fakes (`*-fake.ts`, `*-fake-*.ts`) are test support: they may reach anything.
const isTest = (file) => /\.test\.tsx?$|-fake(-[\w-]+)?\.ts$/.test(file);

/** A file's node in the graph: its top-level folder, or the file itself when it sits at the root. */
export const nodeOf = (src, file) => relative(src, file).split(sep)[0];

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== '__fixtures__') out.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/**
 * Every import between files of `src` that crosses from one node to another: `{ from, to, file,
 * specifier, target, test }`, `target` being the file imported (`.js` read as `.ts`).
 */
export function readImports(src) {
  const root = resolve(src);
  const imports = [];
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      if (relative(root, target).startsWith('..')) continue; // outside the package's sources
      const from = nodeOf(root, file);
      const to = nodeOf(root, target);
      if (from === to) continue;
      imports.push({
        from,
        to,
        file: relative(root, file),
        specifier,
        target: relative(root, target),
        test: isTest(file),
      });
    }
  }
  return imports;
}

/** `node → the nodes it imports`, from the production files only (tests may reach test support). */
export function folderGraph(src) {
  const graph = new Map();
  for (const edge of readImports(src)) {
    if (edge.test) continue;
    if (!graph.has(edge.from)) graph.set(edge.from, new Set());
    graph.get(edge.from).add(edge.to);
  }
  return graph;
}

/** The nodes in dependency order (each after everything it imports); throws naming a cycle. */
export function layersOf(graph) {
  const order = [];
  const state = new Map();
  const visit = (node, path) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(node)), node];
      throw new Error(`cycle: ${cycle.join(' → ')}`);
    }
    state.set(node, 'visiting');
    for (const next of [...(graph.get(node) ?? [])].sort()) visit(next, [...path, node]);
    state.set(node, 'done');
    order.push(node);
  };
  for (const node of [...graph.keys()].sort()) visit(node, []);
  return order;
}

function print(src) {
  const graph = folderGraph(src);
  console.log(`\n${src}`);
  let order;
  try {
    order = layersOf(graph);
  } catch (error) {
    console.log(`  ${error.message}`);
    order = [...graph.keys()].sort();
  }
  const width = Math.max(...order.map((n) => n.length));
  for (const node of order) {
    const deps = [...(graph.get(node) ?? [])].sort();
    console.log(`  ${node.padEnd(width)}  → ${deps.length > 0 ? deps.join(', ') : '(nothing)'}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
  const roots = process.argv.slice(2);
  for (const src of roots.length > 0 ? roots : ['packages/core/src', 'packages/providers/src']) {
    print(relative(process.cwd(), resolve(repo, src)));
  }
}
