import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';

const LANGUAGES = ['ts', 'py', 'go', 'md'];

/** Deterministic pseudo-random numbers, so every run indexes the same repository. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['upload', 'retry', 'invoice', 'render', 'server', 'queue', 'parse', 'token', 'cache', 'stream'];

/**
 * File `i` of the generated repository at `version` (0 until changed): about 100 lines of
 * TypeScript, Python, Go or markdown, with definitions every ten lines or so, as real code has.
 */
export function generatedFile(i, version = 0) {
  const language = LANGUAGES[i % LANGUAGES.length];
  const path = `pkg${i % 50}/mod${Math.floor(i / 50) % 40}/file${i}.${language}`;
  const rnd = random(i * 7919 + version * 104_729 + 1);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)];
  const name = (k) => `${word()}${word()[0].toUpperCase()}${word().slice(1)}${i}x${k}`;
  const lines = [`// file ${i} version ${version}`];
  if (language === 'ts') {
    lines.push("import { helper } from '../shared';", '');
    for (let k = 0; lines.length < 96; k++) {
      if (k % 3 === 0) {
        lines.push(`export class ${name(k)} {`, '  private readonly items: string[] = [];', '');
        lines.push(`  ${word()}(input: string): number {`, `    this.items.push(input);`);
        lines.push(`    return helper(this.items.length, '${word()}');`, '  }', '}', '');
      } else {
        lines.push(`export function ${name(k)}(value: number, options = {}) {`);
        lines.push(`  const ${word()} = value * ${k};`, `  if (${word()} > ${i}) return helper(value, options);`);
        lines.push(`  // ${word()} the ${word()} before ${word()}`, `  return value + ${k};`, '}', '');
      }
    }
  } else if (language === 'py') {
    lines[0] = `# file ${i} version ${version}`;
    lines.push('import os', '');
    for (let k = 0; lines.length < 96; k++) {
      if (k % 3 === 0) {
        lines.push(`class ${name(k)}:`, `    def ${word()}(self, value):`, `        return value * ${k}`, '');
        lines.push(`    def ${word()}_all(self, values):`, `        return [v + ${i} for v in values]`, '', '');
      } else {
        lines.push(`def ${name(k).toLowerCase()}(value, options=None):`, `    # ${word()} the ${word()}`);
        lines.push(`    if value > ${i}:`, `        return os.getenv("${word()}")`, `    return value + ${k}`, '', '');
      }
    }
  } else if (language === 'go') {
    lines.push(`package pkg${i % 50}`, '', 'import "fmt"', '');
    for (let k = 0; lines.length < 96; k++) {
      if (k % 3 === 0) {
        const type = name(k);
        lines.push(`type ${type} struct {`, `\t${word()} int`, '}', '');
        lines.push(`func (s *${type}) ${word()}Value(v int) int {`, `\treturn v + ${k}`, '}', '');
      } else {
        lines.push(`func ${name(k)}(value int) string {`, `\t// ${word()} the ${word()}`);
        lines.push(`\treturn fmt.Sprintf("%d-${word()}", value*${k})`, '}', '');
      }
    }
  } else {
    lines[0] = `# File ${i} (version ${version})`;
    lines.push('');
    for (let k = 0; lines.length < 96; k++) {
      lines.push(`## The ${word()} of ${word()} ${k}`, '');
      for (let p = 0; p < 5; p++) lines.push(`The ${word()} sends the ${word()} to the ${word()} when it ${word()}s.`);
      lines.push('', '```ts', `${word()}(${k});`, '```', '');
    }
  }
  return { path, text: `${lines.join('\n')}\n` };
}

/** `git hash-object`: what GitHub lists as a blob's `sha`. */
const blobId = (text) => {
  const bytes = Buffer.from(text);
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
};

/**
 * A GitHub Enterprise Server fake serving one generated repository of `files` files (`/api/v3`):
 * the branch head, the recursive tree listing (blob ids and sizes) and raw contents, each answered
 * at once from memory. Contents are generated on request, so the fake stays small; every request
 * is counted by path. `commit(changed)` moves the branch to a new commit in which the files
 * numbered in `changed` have new contents (new blob ids).
 */
export async function startGitHubRepositoryFake({ files, repositoryId = '1' }) {
  const versions = new Uint16Array(files);
  const byPath = new Map();
  const entries = [];
  for (let i = 0; i < files; i++) {
    const { path, text } = generatedFile(i);
    byPath.set(path, i);
    entries.push({ path, mode: '100644', type: 'blob', sha: blobId(text), size: Buffer.byteLength(text) });
  }
  let lines = 0;
  for (let i = 0; i < files; i++) lines += generatedFile(i).text.split('\n').length - 1;
  let commits = 1;
  const shaOf = (n) => createHash('sha1').update(`commit ${n}`).digest('hex');
  const trees = new Map([[shaOf(1), JSON.stringify(treeOf(shaOf(1), entries))]]);
  let head = shaOf(1);
  /** Requests by path (query left out). */
  const requests = new Map();
  /** Content reads by file path. */
  const contentReads = new Map();
  const unknown = [];

  const base = `/api/v3/repositories/${repositoryId}`;
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://fake');
    const path = decodeURIComponent(url.pathname);
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const json = (status, body) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method !== 'GET') return json(405, { message: 'Not allowed' });
    if (path === `${base}/branches/main`) return json(200, { name: 'main', commit: { sha: head } });
    if (path.startsWith(`${base}/git/trees/`)) {
      const tree = trees.get(path.slice(`${base}/git/trees/`.length));
      if (tree === undefined || url.searchParams.get('recursive') === null) return json(404, { message: 'Not Found' });
      return json(200, tree);
    }
    if (path.startsWith(`${base}/contents/`)) {
      const file = path.slice(`${base}/contents/`.length);
      const i = byPath.get(file);
      if (i === undefined || url.searchParams.get('ref') !== head) return json(404, { message: 'Not Found' });
      contentReads.set(file, (contentReads.get(file) ?? 0) + 1);
      const bytes = Buffer.from(generatedFile(i, versions[i]).text);
      res.writeHead(200, { 'content-type': 'application/vnd.github.raw', 'content-length': bytes.length });
      return res.end(bytes);
    }
    if (path === '/api/v3/user') return json(200, { login: 'bench', id: 1, name: 'Bench' });
    unknown.push(path);
    return json(404, { message: 'Not Found' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return {
    hostUrl: `http://127.0.0.1:${port}`,
    files,
    lines,
    get head() {
      return head;
    },
    pathOf: (i) => generatedFile(i).path,
    requests,
    contentReads,
    unknown,
    /** A new commit on `main` changing the files numbered in `changed`; returns its sha. */
    commit(changed) {
      for (const i of changed) {
        versions[i]++;
        const { text } = generatedFile(i, versions[i]);
        entries[i] = { ...entries[i], sha: blobId(text), size: Buffer.byteLength(text) };
      }
      head = shaOf(++commits);
      trees.set(head, JSON.stringify(treeOf(head, entries)));
      return head;
    },
    resetCounts() {
      requests.clear();
      contentReads.clear();
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** As GitHub lists a commit recursively: each folder once, then files, sorted by path. */
function treeOf(sha, entries) {
  const folders = new Set();
  for (const e of entries) {
    const parts = e.path.split('/');
    for (let k = 1; k < parts.length; k++) folders.add(parts.slice(0, k).join('/'));
  }
  const tree = [
    ...[...folders].map((path) => ({
      path,
      mode: '040000',
      type: 'tree',
      sha: createHash('sha1').update(`tree ${path}`).digest('hex'),
    })),
    ...entries,
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { sha, tree, truncated: false };
}
