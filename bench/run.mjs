// Runs the performance scenarios and prints each as a ratio against its baseline from the same run.
// `pnpm bench [name ...]` runs only the named scenarios. Results also go to bench/results/latest.json.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = new URL('./scenarios/', import.meta.url).pathname;
const only = process.argv.slice(2);
const results = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.mjs'))
  .sort()) {
  const { default: scenario } = await import(join(dir, file));
  if (only.length && !only.includes(scenario.name)) continue;
  process.stdout.write(`\n${scenario.name}: ${scenario.goal}\n`);
  const started = Date.now();
  const result = await scenario.run();
  results.push({ name: scenario.name, goal: scenario.goal, ...result, seconds: (Date.now() - started) / 1000 });
  const { baseline, measured, ratio, pass } = result;
  process.stdout.write(
    `  baseline ${baseline}\n  measured ${measured}\n  ratio    ${ratio.toFixed(2)}  ${pass ? 'PASS' : 'FAIL'}\n`,
  );
}
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/latest.json', import.meta.url),
  `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`,
);
if (results.some((r) => !r.pass)) process.exitCode = 1;
