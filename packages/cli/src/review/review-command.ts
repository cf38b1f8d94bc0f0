import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type CoverageManifest,
  MarginError,
  openPullRequestByUrl,
  type ReviewPullRequestInput,
  reviewPullRequest,
} from '@margin/core';
import type { CommittableSuggestionSyntax, ProviderRegistry, ReviewPublisher, ReviewSource } from '@margin/core/spec';
import { oneOf, parseCommandArgs, refuseCredentialFlags, usdFlag } from '../cli-args.js';
import { loadCliEnvironment } from '../cli-environment.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliRegistry } from '../cli-registry.js';
import { MODEL_FLAGS, MODEL_USAGE, modelFromOptions } from '../model-options.js';
import { FAIL_ON, failingFindings } from './fail-on.js';
import { formatJson } from './format-json.js';
import { formatMarkdown } from './format-markdown.js';
import { formatSarif } from './format-sarif.js';
import { formatText } from './format-text.js';
import { gitReviewSource } from './git-review-source.js';
import type { ReviewReport } from './report.js';

const FORMATS = ['text', 'json', 'sarif', 'markdown'] as const;
const FORMATTERS = { text: formatText, json: formatJson, sarif: formatSarif, markdown: formatMarkdown };

export const REVIEW_USAGE = `Usage: margin review [--repo DIR] --base REF [--head REF] [options]
       margin review --pr URL [--publish] [options]

Reviews a change with Margin's review engine, without a server or database.

What to review:
  --repo DIR             a local git repository (default: the current directory)
  --base REF             the branch the change goes into, e.g. origin/main; the change is
                         reviewed from the merge base of --base and --head
  --head REF             the change's tip (default: HEAD)
  --pr URL               a pull request on GitHub, GitLab, Azure DevOps, Bitbucket Cloud or a
                         family a plugin in MARGIN_PLUGINS registers, instead; read with the
                         token in MARGIN_SCM_TOKEN
  --publish              with --pr: post the threads and the summary as the service does; running
                         it again posts nothing twice (Margin's hidden markers). Default: a dry run
  --config FILE          use FILE instead of the repository's .margin/config.yml (base side)

${MODEL_USAGE}

Output:
  --format FORMAT        text, json, sarif or markdown (default: text, also when piped); on a
                         terminal, a progress line goes to stderr, never to stdout
  --output FILE          write the report to FILE instead of stdout
  --fail-on SEVERITY     error, warning, suggestion or never (default: error)

Spend (US$ at the model's prices; a model without prices costs nothing, so no cap binds it):
  --max-cost-usd USD     hard cap (MARGIN_REVIEW_HARD_CAP_USD): a review whose cheapest part is
                         estimated over it calls no model; one whose spend reaches it stops
                         (calls in flight finish) and reports the files it left
  --soft-cost-usd USD    soft cap (MARGIN_REVIEW_SOFT_CAP_USD), not above the hard one: an estimate
                         over it degrades the review step by step (lighter verification, cheaper
                         models, lower-risk files skipped), said in the summary and the coverage

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 when the review could not run
(bad arguments, not a git repository, unknown ref, model unreachable or refusing the key, every
part of the change failed), with one line on stderr saying why.`;

export const reviewCommand: CliCommand = {
  name: 'review',
  summary: 'review a local git change or a pull request, without a server (see --help)',
  failureStatus: 2,
  async run(argv, io) {
    refuseCredentialFlags(argv);
    const { values } = parseCommandArgs(argv, {
      repo: { type: 'string' },
      base: { type: 'string' },
      head: { type: 'string' },
      pr: { type: 'string' },
      publish: { type: 'boolean' },
      config: { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string' },
      'fail-on': { type: 'string' },
      'max-cost-usd': { type: 'string' },
      'soft-cost-usd': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      ...MODEL_FLAGS,
    });
    if (values.help) {
      io.stdout.write(`${REVIEW_USAGE}\n`);
      return 0;
    }
    const format = oneOf('--format', values.format, FORMATS, 'text');
    const failOn = oneOf('--fail-on', values['fail-on'], FAIL_ON, 'error');
    if (values.pr && (values.repo || values.base || values.head)) {
      throw MarginError.validation(
        '--pr reviews a pull request; --repo, --base and --head are for a local repository.',
      );
    }
    if (values.publish && !values.pr)
      throw MarginError.validation('--publish needs --pr: a local change has nowhere to post.');
    if (!values.pr && !values.base) {
      throw MarginError.validation(
        'Name the branch the change goes into with --base (e.g. --base origin/main), or a pull request with --pr.',
      );
    }
    const spendCaps = spendCapsOf(values, io);
    const config = values.config === undefined ? undefined : await readConfig(resolve(io.cwd, values.config));
    const registry = await cliRegistry(io);
    const binding = modelFromOptions(values, io, registry);
    const { source, publisher, target, hostBaseUrl, suggestionSyntax } = values.pr
      ? await pullRequestSource(values.pr, io, registry)
      : {
          ...(await gitSource(values.repo ?? '.', values.base as string, values.head ?? 'HEAD', io)),
          publisher: undefined,
          hostBaseUrl: undefined,
          suggestionSyntax: undefined,
        };

    const progress = io.stderr.isTTY ? progressLine(io) : undefined;
    const review = await reviewPullRequest({
      source,
      model: binding.models,
      config,
      settings: { spendCaps },
      signal: io.signal,
      onProgress: progress?.update,
      publish: values.publish && publisher ? { publisher, hostBaseUrl, suggestionSyntax } : undefined,
    }).finally(() => progress?.done());
    if (review.status !== 'reviewed') throw MarginError.conflict(`Nothing was reviewed: ${review.reason}`);
    if (review.allFailed) throw reviewFailure(review.coverage);

    const report: ReviewReport = { review, failOn, model: binding.label, target, published: review.published };
    const text = FORMATTERS[format](report);
    if (values.output) await writeFile(resolve(io.cwd, values.output), text);
    else io.stdout.write(text);
    return failingFindings(review.findings, failOn).length > 0 ? 1 : 0;
  },
};

type SpendCaps = NonNullable<NonNullable<ReviewPullRequestInput['settings']>['spendCaps']>;

/**
 * The flags' caps over the environment's, checked as the service checks its own: the soft cap not
 * above the hard one. A hard cap of 0 allows no model call at all; a soft cap of 0 degrades as far
 * as the ladder goes (the engine counts from a millionth of a dollar, as the client budgets do).
 */
function spendCapsOf(values: { 'max-cost-usd'?: string; 'soft-cost-usd'?: string }, io: CliIo): SpendCaps {
  const env = loadCliEnvironment(io.env).spendCaps;
  const hard = usdFlag('--max-cost-usd', values['max-cost-usd']);
  const soft = usdFlag('--soft-cost-usd', values['soft-cost-usd']);
  const hardUsd = hard ?? env.hardUsd;
  const softUsd = soft ?? env.softUsd;
  if (softUsd !== undefined && hardUsd !== undefined && softUsd > hardUsd) {
    const softName = soft === undefined ? 'MARGIN_REVIEW_SOFT_CAP_USD' : '--soft-cost-usd';
    const hardName = hard === undefined ? 'MARGIN_REVIEW_HARD_CAP_USD' : '--max-cost-usd';
    throw MarginError.validation(`${softName} (US$${softUsd}) must not exceed ${hardName} (US$${hardUsd}).`);
  }
  if (hardUsd === 0) throw MarginError.conflict('Nothing was reviewed: --max-cost-usd 0 allows no model call.');
  return { hardUsd, softUsd: softUsd === 0 ? 0.000001 : softUsd };
}

async function readConfig(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw MarginError.validation(`--config ${path} cannot be read.`);
  }
}

async function gitSource(repo: string, base: string, head: string, io: CliIo) {
  const dir = resolve(io.cwd, repo);
  const source = await gitReviewSource({ repo: dir, base, head, env: io.env, signal: io.signal });
  return { source, target: `${base}...${head}` };
}

async function pullRequestSource(
  url: string,
  io: CliIo,
  registry: ProviderRegistry,
): Promise<{
  source: ReviewSource;
  publisher: ReviewPublisher;
  target: string;
  hostBaseUrl: string;
  suggestionSyntax: CommittableSuggestionSyntax | undefined;
}> {
  const env = loadCliEnvironment(io.env);
  if (!env.scmToken) {
    throw MarginError.validation('--pr needs a token for the provider in MARGIN_SCM_TOKEN (never a flag).');
  }
  const opened = await openPullRequestByUrl({ registry, url, token: env.scmToken, signal: io.signal });
  return {
    source: opened.bound,
    publisher: opened.bound,
    target: url,
    hostBaseUrl: opened.pullRequest.hostBaseUrl,
    suggestionSyntax: opened.suggestionSyntax,
  };
}

/** One line on a terminal's stderr, rewritten in place as files are done. */
function progressLine(io: CliIo) {
  let shown = false;
  return {
    update: (p: { filesTotal: number; filesDone: number }) => {
      shown = true;
      io.stderr.write(`\rmargin review: ${p.filesDone}/${p.filesTotal} files`);
    },
    done: () => {
      if (shown) io.stderr.write('\r\x1b[K');
    },
  };
}

/**
 * Every part of the change failed. When the model failed every call (unreachable, refusing the
 * key), that is the one thing to say; otherwise the reasons, as the coverage records them.
 */
function reviewFailure(coverage: CoverageManifest): MarginError {
  const reasons = [...new Set(coverage.files.filter((f) => f.state === 'reviewFailed').map((f) => f.reason ?? ''))];
  const modelErrors = reasons.filter((r) => r.startsWith('modelError: ')).map((r) => r.slice('modelError: '.length));
  if (modelErrors.length === reasons.length && modelErrors.length > 0) {
    return MarginError.provider('unavailable', `The model could not be used: ${modelErrors.join(' ')}`);
  }
  return MarginError.provider('invalidResponse', `No part of the change could be reviewed (${reasons.join('; ')}).`);
}
