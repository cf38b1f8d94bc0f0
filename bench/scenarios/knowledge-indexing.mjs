import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startGitHubRepositoryFake } from '../lib/github-repository-fake.mjs';
import { startServer } from '../lib/processes.mjs';

const FILES = Number(process.env.BENCH_INDEX_FILES ?? 20_000);
const CHANGED = 10;
const RSS_MB = 400;
const SYSTEM_TENANT_ID = '11111111-1111-1111-1111-111111111111';

/** Peak and current resident memory of a process, in MB (Linux `/proc`). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { peakMb: kb('VmHWM') / 1024, currentMb: kb('VmRSS') / 1024 };
}

/** User and system CPU seconds a process has used (clock ticks of 1/100 s, as on Linux). */
function cpuSecondsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * A 20,000-file repository (~2 million lines of TypeScript, Python, Go and markdown) indexed by the
 * built host in a process of its own (its index worker, tree-sitter symbols, SQLite in a temp dir)
 * through the real GitHub adapter, from a GitHub Enterprise fake answering at once from memory.
 * Measures files per second from the refresh request to `ready`, the host's CPU time, and its peak
 * RSS (`VmHWM`, the host's own start-up included); then changes ten files and checks the second
 * refresh reads exactly those ten.
 */
export default {
  name: 'knowledge-indexing',
  goal: `index ${FILES.toLocaleString('en')} files under ${RSS_MB} MB peak RSS; a refresh of ${CHANGED} changed files reads only them`,
  async run() {
    const github = await startGitHubRepositoryFake({ files: FILES });
    const host = await startServer(new URL('../servers/margin-host.mjs', import.meta.url).pathname, {
      env: {
        MARGIN_BENCH_ENV: JSON.stringify({
          MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
          WORKER_POLL_INTERVAL_MILLISECONDS: '100',
        }),
      },
      // `BENCH_INDEX_CPU_PROF=<dir>` writes the host's CPU profile there when it stops.
      // `BENCH_INDEX_NODE_ARGS` adds Node options to the host (`--max-old-space-size=192`).
      execArgv: [
        ...(process.env.BENCH_INDEX_CPU_PROF
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_INDEX_CPU_PROF}`]
          : []),
        ...(process.env.BENCH_INDEX_NODE_ARGS ?? '').split(' ').filter(Boolean),
      ],
    });
    try {
      const api = `${host.url}/api`;
      let token;
      const call = async (method, path, body) => {
        const res = await fetch(api + path, {
          method,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = await res.json();
        if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
        return json;
      };
      ({ accessToken: token } = await call('POST', '/auth/login', { username: 'admin', password: 'bench-password' }));
      const client = await call('POST', '/clients', { displayName: 'Bench', tenantId: SYSTEM_TENANT_ID });
      const connection = await call('POST', `/clients/${client.id}/provider-connections`, {
        providerFamily: 'gitHostA',
        authenticationKind: 'personalAccessToken',
        hostBaseUrl: github.hostUrl,
        displayName: 'GitHub',
        secret: 'ghp_benchFake0000000000000000000000000000',
      });
      const scope = await call('POST', `/clients/${client.id}/provider-connections/${connection.id}/scopes`, {
        scopeType: 'organization',
        scopePath: `${github.hostUrl}/acme`,
      });
      const knowledge = `/admin/clients/${client.id}/knowledge`;
      const source = await call('POST', `${knowledge}/sources`, {
        displayName: 'Generated',
        sourceKind: 'repository',
        organizationScopeId: scope.id,
        providerProjectKey: 'acme',
        canonicalSourceRef: { provider: 'gitHostA', value: '1' },
        defaultBranch: 'main',
      });

      /** Asks for a refresh and waits for `ready` at `commit`: seconds of wall and host CPU time. */
      const refresh = async (commit) => {
        const cpuBefore = cpuSecondsOf(host.pid);
        const started = performance.now();
        await call('POST', `${knowledge}/sources/${source.id}/refresh`, {});
        for (;;) {
          const [main] = (await call('GET', `${knowledge}/sources/${source.id}/index`)).branches;
          if (main.status === 'failed') throw new Error(`indexing failed: ${main.error}`);
          if (main.status === 'ready' && main.indexedCommit === commit) {
            return {
              state: main,
              seconds: (performance.now() - started) / 1000,
              cpu: cpuSecondsOf(host.pid) - cpuBefore,
            };
          }
          await sleep(100);
        }
      };

      const idle = memoryOf(host.pid);
      const first = await refresh(github.head);
      const afterFirst = memoryOf(host.pid);
      if (first.state.files + first.state.skippedFiles !== FILES) {
        throw new Error(`indexed ${first.state.files} files and skipped ${first.state.skippedFiles} of ${FILES}`);
      }
      const firstReads = [...github.contentReads.values()].reduce((n, c) => n + c, 0);
      if (github.unknown.length > 0) throw new Error(`the fake was asked for ${github.unknown.slice(0, 3).join(', ')}`);

      const changed = Array.from({ length: CHANGED }, (_, k) => Math.floor((k * FILES) / CHANGED) + 3);
      github.resetCounts();
      const second = await refresh(github.commit(changed));
      const read = [...github.contentReads.entries()];
      const expected = changed.map((i) => github.pathOf(i)).sort();
      const exact =
        read.length === CHANGED &&
        read.every(([, count]) => count === 1) &&
        JSON.stringify(read.map(([path]) => path).sort()) === JSON.stringify(expected);
      if (!exact) throw new Error(`the refresh read ${read.length} files: ${JSON.stringify(read.slice(0, 12))}`);
      const peak = memoryOf(host.pid).peakMb;

      const filesPerSecond = FILES / first.seconds;
      return {
        baseline: `goal ${RSS_MB} MB peak RSS (absolute); throughput reported, not judged`,
        measured:
          `${filesPerSecond.toFixed(0)} files/s (${FILES.toLocaleString('en')} files, ${github.lines.toLocaleString('en')} lines, ` +
          `${first.state.chunks.toLocaleString('en')} chunks, ${first.state.symbols.toLocaleString('en')} symbols in ${first.seconds.toFixed(1)} s; ` +
          `host CPU ${first.cpu.toFixed(1)} s = ${((first.cpu * 1000) / FILES).toFixed(2)} ms/file; ${firstReads} contents read), ` +
          `peak RSS ${peak.toFixed(0)} MB (idle ${idle.currentMb.toFixed(0)} MB, after indexing ${afterFirst.currentMb.toFixed(0)} MB); ` +
          `refresh of ${CHANGED} changed files read ${read.length} in ${second.seconds.toFixed(2)} s`,
        ratio: RSS_MB / peak,
        pass: peak < RSS_MB && exact,
      };
    } finally {
      await host.stop();
      await github.close();
    }
  },
};
