/**
 * Everything the browser suite runs against, on loopback only: the console built from source, a
 * real Margin host serving it with Margin's own review engine, a fake OpenAI-compatible model server
 * scripted for the review (`review-script.ts`), a fake GitHub serving the pull request reviewed and a
 * fake Azure DevOps serving its project's wikis (a knowledge source from the console).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProviderRegistry } from '@margin/providers';
import {
  ADO_WIKI_REPOSITORY_ID,
  type AzureDevOpsFake,
  GH_REPOSITORY_ID,
  type GitHubFake,
  startAzureDevOpsFake,
  startGitHubFake,
} from '@margin/providers/testing';
import { type FakeOpenAi, SECRETS, startFakeOpenAi } from '@margin/server-express/test-kits';
import { startTestHost, type TestHost } from '@margin/server-express/testing';
import { PULL_REQUEST, type ScriptedReview, scriptReview } from './review-script.js';

const consoleRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface ConsoleHost {
  host: TestHost;
  models: FakeOpenAi;
  github: GitHubFake;
  /** Its project wiki (`ADO_WIKI_REPOSITORY_ID`) has a page on `wikiMaster`. */
  ado: AzureDevOpsFake;
  /** The model's script for the review of `PULL_REQUEST`: `release()` lets it answer. */
  review: ScriptedReview;
  /** What the GitHub fake accepts, to type into the connection form. */
  githubToken: string;
  githubRepositoryId: string;
  /** What the Azure DevOps fake accepts. */
  adoToken: string;
  close(): Promise<void>;
}

/** Builds the console into a temporary folder (about a second), so the suite tests today's sources. */
export async function buildConsole(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'margin-console-build-'));
  const vite = join(
    dirname(createRequire(join(consoleRoot, 'package.json')).resolve('vite/package.json')),
    'bin',
    'vite.js',
  );
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: consoleRoot,
      env: { ...process.env, NODE_ENV: 'production' },
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
  return outDir;
}

export async function startConsoleHost(): Promise<ConsoleHost> {
  const [consoleDir, models, github, ado] = await Promise.all([
    buildConsole(),
    startFakeOpenAi(),
    startGitHubFake({ pat: SECRETS.github }),
    startAzureDevOpsFake({ pat: SECRETS.adoPat }),
  ]);
  await github.loadPullRequest(PULL_REQUEST);
  ado.loadRepositoryCommit({
    repositoryId: ADO_WIKI_REPOSITORY_ID,
    commitSha: 'a1'.repeat(20),
    branch: 'wikiMaster',
    files: { 'Home.md': '# Welcome\n\nShip with the kraken pipeline.\n' },
  });
  const review = scriptReview(models);
  // No `reviewEngine`: the host runs Margin's own.
  const host = await startTestHost({
    // The model server and GitHub fake listen on loopback, which the egress guard refuses by default.
    providers: createProviderRegistry({ allowPrivateEgress: true }),
    env: {
      MARGIN_CONSOLE_DIR: consoleDir,
      MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
      WORKER_POLL_INTERVAL_MILLISECONDS: '100',
      // Progress is saved with each lease heartbeat (six per lease): a short lease makes it live.
      WORKER_LEASE_SECONDS: '3',
      WEBHOOK_PROCESSOR_POLL_INTERVAL_MILLISECONDS: '100',
      LOG_LEVEL: 'warn',
    },
  });
  return {
    host,
    models,
    github,
    ado,
    review,
    githubToken: SECRETS.github,
    githubRepositoryId: GH_REPOSITORY_ID,
    adoToken: SECRETS.adoPat,
    async close() {
      review.release(); // a review still waiting on the model (a failed test) ends with the host
      await host.close();
      await Promise.all([
        models.close(),
        github.close(),
        ado.close(),
        rm(consoleDir, { recursive: true, force: true }),
      ]);
    },
  };
}
