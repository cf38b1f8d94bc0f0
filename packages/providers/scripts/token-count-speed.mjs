// How fast exact token counting is for the review engine's budget (≤ 2 ms CPU per file of
// orchestration). Not a test: `node packages/providers/scripts/token-count-speed.mjs`.
//
// Loads the tokenizers exactly as src/ai/shared/token-count.ts does (createRequire, one entry
// point per encoding, special tokens counted as text) and counts 20 KB unified diffs cut from this
// repository's own TypeScript, each diff different so gpt-tokenizer's merge cache is not flattered
// by repeats. Reports the one-off load, the first count, and the median / p90 of later counts.
//
// Measured 2026-11-23 on this project's shared 2-core machine (Node 20.20.2, other engineers' jobs
// running; two runs, so ranges):
//   load on first count   o200k_base 0.5–1.0 s, cl100k_base 0.15–0.3 s (once per process)
//   20 KB diff            median 5.9–10.9 ms (o200k), 6.6–8.3 ms (cl100k); p90 9–18 ms
//   5 KB diff             median 0.8–2.1 ms;  2 KB diff  median 0.5–1.0 ms
//   same 20 KB again      3.6–7.6 ms (the merge cache helps little)
//   code tokenizes at ~3.95 characters per token, so the ÷3.5 estimate runs ~12% high;
//   the estimate itself costs well under 1 µs.
// Exact counting is thus ~0.3–0.5 ms per KB: within 2 ms per file only for diffs up to ~5 KB.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const DIFF_BYTES = 20_000;
const SIZES = [2_000, 5_000, DIFF_BYTES];
const RUNS = 60;
const here = new URL('.', import.meta.url).pathname;
const requireHere = createRequire(join(here, '..', 'src', 'ai', 'shared', 'token-count.ts'));
const PLAIN_TEXT = { disallowedSpecial: new Set() };

function sources(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '__fixtures__') sources(path, out);
    else if (entry.isFile() && entry.name.endsWith('.ts')) out.push(readFileSync(path, 'utf8'));
  }
  return out;
}

const corpus = sources(join(here, '..', '..'))
  .join('\n')
  .split('\n');
function diffAt(offset, bytes = DIFF_BYTES) {
  const lines = ['diff --git a/src/file.ts b/src/file.ts', '@@ -1,400 +1,420 @@'];
  let size = 0;
  for (let i = offset; size < bytes; i++) {
    const line = `${'+ -'[i % 3]}${corpus[i % corpus.length]}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];

console.log(`node ${process.version}, ${corpus.length} corpus lines, ${RUNS} different ${DIFF_BYTES}-byte diffs`);
for (const encoding of ['o200k_base', 'cl100k_base']) {
  let started = performance.now();
  const api = requireHere(`gpt-tokenizer/encoding/${encoding}`);
  const loadMs = performance.now() - started;
  started = performance.now();
  const firstTokens = api.countTokens(diffAt(0), PLAIN_TEXT);
  const firstMs = performance.now() - started;
  const rows = [];
  for (const bytes of SIZES) {
    const times = [];
    let tokens = 0;
    for (let run = 1; run <= RUNS; run++) {
      const text = diffAt(run * 997 + bytes, bytes);
      started = performance.now();
      tokens += api.countTokens(text, PLAIN_TEXT);
      times.push(performance.now() - started);
    }
    rows.push(
      `${bytes / 1000} KB: median ${median(times).toFixed(2)} ms, p90 ${p90(times).toFixed(2)} ms ` +
        `(${(tokens / RUNS).toFixed(0)} tokens, ${((bytes * RUNS) / tokens).toFixed(2)} chars/token; estimate ${Math.ceil(bytes / 3.5)})`,
    );
  }
  const repeat = diffAt(0);
  started = performance.now();
  for (let run = 0; run < 10; run++) api.countTokens(repeat, PLAIN_TEXT);
  rows.push(`same 20 KB again (merge cache warm): ${((performance.now() - started) / 10).toFixed(2)} ms`);
  console.log(
    `${encoding}: load ${loadMs.toFixed(0)} ms, first 20 KB count ${firstMs.toFixed(1)} ms (${firstTokens} tokens)`,
  );
  for (const row of rows) console.log(`  ${row}`);
}
const sample = diffAt(0);
let sink = 0;
const started = performance.now();
for (let run = 0; run < 100_000; run++) sink += Math.ceil(sample.length / 3.5);
console.log(`estimate: ${(((performance.now() - started) / 100_000) * 1000).toFixed(3)} µs per text (${sink > 0})`);
