import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MarginError, type ReviewModelTraits } from '@margin/core';
import { parseCommandArgs, refuseCredentialFlags } from '../cli-args.js';
import type { CliCommand } from '../cli-io.js';
import { cliRegistry } from '../cli-registry.js';
import { MODEL_FLAGS, MODEL_USAGE, modelFromOptions } from '../model-options.js';
import { type EvalCase, loadCases } from './eval-case.js';
import { runEval } from './eval-run.js';
import { formatEvalTable } from './eval-table.js';
import { readRecordedAnswers, recordingModel, replayingModel, writeRecordedAnswers } from './recorded-model.js';
import { purposeOf, scriptedReviewer } from './scripted-reviewer.js';

/** The scripted binding's prices, so the cost column is exercised (the answers cost nothing real). */
const SCRIPTED_TRAITS: ReviewModelTraits = {
  connectionId: 'scripted',
  prices: { inputCostPer1MUsd: 1, outputCostPer1MUsd: 4 },
};
const ANSWERS_FILE = 'recorded-answers.jsonl';

export const EVAL_USAGE = `Usage: margin eval --scripted [options]
       margin eval --model ID [model options] [options]

Measures review quality and cost on a labelled set of changes (eval/cases; docs/evaluation.md).

Mode:
  --scripted             replay the answers recorded beside each case (no model; checks everything
                         around the model); a prompt that changed since recording fails the case
  --record-scripted      record those answers again from the cases' scripted reviewer
  (neither)              live: the model named below; writes eval/results/<name>.json

Options:
  --cases DIR            the cases (default: eval/cases)
  --case ID              only this case; repeatable
  --work DIR             where the cases' repositories are built (default: eval/.work)
  --results DIR          where a live run writes its results (default: eval/results)
  --name NAME            the results file's name (default: from the model)
  --judge                also ask the model whether each matched finding describes the expected issue
  --format FORMAT        text (the table, default) or json

${MODEL_USAGE}`;

export const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'measure review quality and cost of a model on eval/cases (see --help)',
  failureStatus: 2,
  async run(argv, io) {
    refuseCredentialFlags(argv);
    const { values } = parseCommandArgs(argv, {
      scripted: { type: 'boolean' },
      'record-scripted': { type: 'boolean' },
      cases: { type: 'string' },
      case: { type: 'string', multiple: true },
      work: { type: 'string' },
      results: { type: 'string' },
      name: { type: 'string' },
      judge: { type: 'boolean' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      ...MODEL_FLAGS,
    });
    if (values.help) {
      io.stdout.write(`${EVAL_USAGE}\n`);
      return 0;
    }
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') {
      throw MarginError.validation(`--format must be one of text, json (got '${format}').`);
    }
    if (values.scripted && values['record-scripted']) {
      throw MarginError.validation(
        '--scripted replays the recorded answers; --record-scripted records them. Pick one.',
      );
    }
    const casesDir = resolve(io.cwd, values.cases ?? join('eval', 'cases'));
    const workDir = resolve(io.cwd, values.work ?? join('eval', '.work'));
    const cases = await loadCases(casesDir, values.case ?? []);
    if (cases.length === 0) throw MarginError.validation(`No eval cases in ${casesDir}.`);
    const scripted = values.scripted || values['record-scripted'];
    const live = scripted ? undefined : modelFromOptions(values, io, await cliRegistry(io));

    const recordings = new Map<string, ReturnType<typeof recordingModel>>();
    const replays = new Map<string, Awaited<ReturnType<typeof readRecordedAnswers>>>();
    if (values.scripted) {
      for (const c of cases) replays.set(c.id, await readRecordedAnswers(join(c.dir, ANSWERS_FILE)));
    }
    const modelFor = (c: EvalCase) => {
      if (live) return live.model;
      if (values.scripted) return replayingModel(replays.get(c.id) ?? [], c.id);
      let recorder = recordings.get(c.id);
      if (!recorder) {
        recorder = recordingModel(scriptedReviewer(c), purposeOf);
        recordings.set(c.id, recorder);
      }
      return recorder;
    };
    const progress = io.stderr.isTTY && format === 'text';
    const { results, totals } = await runEval({
      cases,
      modelFor,
      traits: live ? live.traits : SCRIPTED_TRAITS,
      // Recording runs the judge too, so a scripted --judge run finds its answers.
      judgeFor: values.judge || values['record-scripted'] ? modelFor : undefined,
      workDir,
      env: io.env,
      signal: io.signal,
      onCase: progress ? (r) => io.stderr.write(`\rmargin eval: ${r.id}`.padEnd(60)) : undefined,
    });
    if (progress) io.stderr.write('\r\x1b[K');

    if (values['record-scripted']) {
      for (const c of cases)
        await writeRecordedAnswers(join(c.dir, ANSWERS_FILE), recordings.get(c.id)?.recorded ?? []);
    }
    const label = live ? live.label : 'scripted (recorded answers)';
    const report = {
      model: label,
      mode: live ? 'live' : 'scripted',
      judge: Boolean(values.judge),
      totals,
      cases: results,
    };
    if (live) {
      const dir = resolve(io.cwd, values.results ?? join('eval', 'results'));
      const name = (values.name ?? live.label).replace(/[^A-Za-z0-9._-]+/g, '-');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    }
    io.stdout.write(
      format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatEvalTable(label, results, totals),
    );
    if (values.scripted && totals.failedCases > 0) {
      // Replaying is a regression check: a case it cannot replay means the engine changed what it asks.
      const failed = results.filter((r) => r.error);
      throw MarginError.provider(
        'invalidResponse',
        `${failed.length} case${failed.length === 1 ? '' : 's'} could not be replayed (${failed.map((r) => r.id).join(', ')}): ${failed[0]?.error}`,
      );
    }
    return 0;
  },
};
