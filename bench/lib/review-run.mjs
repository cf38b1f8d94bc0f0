import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One review in a fresh process (so CPU time and peak RSS are its own); see workers/review-run.mjs. */
export async function reviewRun({ files, latencyMs, concurrency }) {
  const worker = new URL('../workers/review-run.mjs', import.meta.url).pathname;
  const { stdout } = await run(process.execPath, [worker, String(files), String(latencyMs), String(concurrency)], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}
