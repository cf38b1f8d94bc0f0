import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { FINDING_CATEGORIES, MarginError, SEVERITIES } from '@margin/core';
import { z } from 'zod';
import { writeGitRepository } from '../git-repository.js';

const category = z.enum(FINDING_CATEGORIES);

/** `eval/cases/<id>/case.json`: what the change is, and what a good review of it says. */
export const EvalCaseFile = z.object({
  /** The head commit's subject: the pull request's title. */
  title: z.string().min(1),
  /** The head commit's body: the pull request's description. */
  description: z.string().default(''),
  language: z.enum(['typescript', 'python', 'go', 'java', 'csharp']),
  /** `clean`: a refactor, rename or docs change where the right review is silence. */
  kind: z.enum(['defect', 'clean']),
  expected: z
    .array(
      z.object({
        file: z.string().min(1),
        /** The new-file lines a finding about it may point at (inclusive). */
        lines: z.tuple([z.number().int().positive(), z.number().int().positive()]),
        category,
        description: z.string().min(1),
      }),
    )
    .default([]),
  /**
   * What the scripted reviewer answered when the recorded answers were made (`--record-scripted`):
   * its findings (right, wrong or missing, on purpose), the verifier's scores, and whether its
   * first answer was unreadable. Live runs ignore it.
   */
  scripted: z
    .object({
      findings: z
        .array(
          z.object({
            file: z.string(),
            quote: z.string(),
            line: z.number().int().positive(),
            category: z.string(),
            severity: z.enum(SEVERITIES),
            confidence: z.number().int().min(0).max(100).default(85),
            title: z.string(),
            message: z.string(),
            /** The verifier's score 0–10 for it (default 8). */
            score: z.number().int().min(0).max(10).default(8),
          }),
        )
        .default([]),
      unreadableFirst: z.boolean().default(false),
    })
    .default({ findings: [], unreadableFirst: false }),
});

export type EvalCaseSpec = z.infer<typeof EvalCaseFile>;

export interface EvalCase extends EvalCaseSpec {
  id: string;
  dir: string;
  base: Record<string, string>;
  head: Record<string, string>;
}

/** Every case under `dir` (one folder each, with `case.json`, `base/` and `head/`), by id. */
export async function loadCases(dir: string, only: readonly string[] = []): Promise<EvalCase[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => {
    throw MarginError.validation(`--cases ${dir} is not a folder of eval cases.`);
  });
  const ids = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const unknown = only.filter((id) => !ids.includes(id));
  if (unknown.length > 0) throw MarginError.validation(`No eval case ${unknown.join(', ')} in ${dir}.`);
  const cases: EvalCase[] = [];
  for (const id of only.length > 0 ? only : ids) {
    const caseDir = join(dir, id);
    const raw = await readFile(join(caseDir, 'case.json'), 'utf8').catch(() => undefined);
    if (raw === undefined) continue;
    const parsed = EvalCaseFile.safeParse(JSON.parse(raw));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw MarginError.validation(`Eval case ${id}: ${issue?.path.join('.')} ${issue?.message}.`);
    }
    cases.push({
      ...parsed.data,
      id,
      dir: caseDir,
      base: await readTree(join(caseDir, 'base')),
      head: await readTree(join(caseDir, 'head')),
    });
  }
  return cases;
}

async function readTree(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files[relative(root, path).split('\\').join('/')] = await readFile(path, 'utf8');
    }
  };
  await walk(root);
  return files;
}

/**
 * The case as a git repository: `main` holds the base tree, `change` the head tree (files missing
 * from it deleted; git finds renames itself), with the case's title and description as the head
 * commit's message. Fixed dates and author make the same commits everywhere.
 */
export function buildCaseRepository(c: EvalCase, repo: string): void {
  const head: Record<string, string | null> = {};
  for (const path of Object.keys(c.base)) if (!(path in c.head)) head[path] = null;
  Object.assign(head, c.head);
  writeGitRepository(repo, [
    { message: 'Base', branch: 'main', files: c.base },
    { message: c.description ? `${c.title}\n\n${c.description}` : c.title, branch: 'change', files: head },
  ]);
}
