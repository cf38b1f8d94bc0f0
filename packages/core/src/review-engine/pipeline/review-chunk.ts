import {
  type AiChatRequest,
  type AiMessage,
  type AiPurpose,
  addUsage,
  askStructured,
  emptyUsage,
  type OutputRung,
  type StructuredOutcome,
} from '../../ai/index.js';
import { MarginError } from '../../errors.js';
import type { Clock } from '../../platform/index.js';
import { type AnchorableFile, anchorFinding, type PathResolver } from '../anchor/anchor.js';
import { instructionsFor, type RepoConfig } from '../config/repo-config.js';
import { indexDiff } from '../diff/diff-index.js';
import type { ParsedDiff } from '../diff/parse-diff.js';
import { renderFileDiff, renderFileParts } from '../diff/render-diff.js';
import { demote, type EngineFinding } from '../engine-finding.js';
import { applyVerdict } from '../gate/gate.js';
import { fence } from '../hostile/fence.js';
import { findingKeys } from '../identity/finding-keys.js';
import { type ProposedFinding, REVIEW_ANSWER_SPEC, type ReviewAnswer } from '../output/review-answer.js';
import type { PackedChunk } from '../plan/pack-chunks.js';
import { TIER_PURPOSE, type Tier } from '../plan/tiers.js';
import { reviewSystemPrompt, reviewUserMessage, VERIFY_SYSTEM_PROMPT } from '../prompt/review-prompt.js';
import type { ProtocolPass, ProtocolWriter } from '../protocol/protocol-writer.js';
import type { ReviewModel, ReviewModels } from '../review-engine-v1.js';
import { type CallSlots, runOnSlots } from '../thorough/call-slots.js';
import { reachConsensus } from '../thorough/consensus.js';
import { sampleOrders } from '../thorough/hunk-order.js';
import type { ThoroughSettings } from '../thorough/thorough-settings.js';
import { ANSWER_NOW, askWithFileReads } from '../tools/explore.js';
import { FileSlices } from '../tools/file-slices.js';
import type { HeadFiles } from '../tools/head-files.js';
import type { ToolCallsByTier } from '../tools/read-file-tool.js';
import { VERIFY_ANSWER_SPEC } from '../verify/verify-answer.js';
import { describeLines } from './focus-ranges.js';
import type { PlannedFile } from './prepare-files.js';
import { meteredChat, type UsageLedger } from './usage-ledger.js';

export interface ChunkEnv {
  files: ReadonlyMap<number, PlannedFile>;
  /** Every file of the change (built once per review), so a finding about another changed file is not taken for invented. */
  changedFiles: PathResolver;
  changedPaths: ReadonlyArray<{ path: string; previousPath?: string | undefined; deleted: boolean }>;
  models: ReviewModels;
  ledger: UsageLedger;
  protocol: ProtocolWriter;
  clock: Clock;
  signal: AbortSignal;
  newId: () => string;
  nonce: string;
  pullRequest: { title: string; description: string };
  config: RepoConfig;
  dismissed: string[];
  temperature: number;
  verify: boolean;
  /** The soft spend cap's first rung: only `error` and `warning` findings go to the verifier. */
  verifySevereOnly: boolean;
  /**
   * The purpose each tier's chunks are reviewed on when the soft cap's ladder moved a tier to a
   * cheaper model (`mediumForHigh`, `triageForLow`); absent, `TIER_PURPOSE`. Only the model changes:
   * the chunk keeps its tier's file-read budget (used when the model can read files).
   */
  purposeByTier?: Readonly<Record<Tier, Exclude<AiPurpose, 'embeddingDefault'>>> | undefined;
  maxOutputTokens: number;
  /** By planned file: lines changed since the last review. */
  focus: ReadonlyMap<number, number[]>;
  /** By path (lower-cased): titles of findings already posted there. */
  alreadyReported: ReadonlyMap<string, string[]>;
  /**
   * Read-only file reads before the answer, for models with `supportsToolUse`; absent when every
   * tier's budget is 0 or the source cannot read files.
   */
  tools?: { files: HeadFiles; callsByTier: ToolCallsByTier } | undefined;
  /** The hard spend cap, checked again before each tool round and each thorough sample. */
  hardUsd?: number | undefined;
  /** Thorough mode for this job (reference §6.5), absent when off; it applies to high-tier chunks only. */
  thorough?: ThoroughRun | undefined;
}

export interface ThoroughRun extends ThoroughSettings {
  /** Seeds the samples' hunk orders: the job's id, so a rerun of the job shows the same orders. */
  seed: string;
  /** The job's bound on calls in flight; the chunk running holds one of them. */
  slots: CallSlots;
}

export interface ChunkResult {
  findings: EngineFinding[];
  /** Pieces that could not be reviewed: their files are `reviewFailed` with the reason. */
  failures: Array<{ fileIds: number[]; reason: string }>;
  /** How each answer was read, for the parse-success figures per rung. */
  parsing: Array<{ rung: OutputRung; ok: boolean; repaired: boolean }>;
}

/**
 * One conversation about one chunk: the prompt, the structured answer, anchoring, a verifying pass
 * that can refute, and the deterministic claim checks. A chunk too big for the model's window is
 * split and each half reviewed alone; a chunk whose answer cannot be read fails visibly.
 *
 * In thorough mode (high-tier chunks only) the answer is asked for several times, each sample with
 * the hunks in another order, and only findings enough samples agree on go on to verification.
 */
export async function reviewChunk(chunk: PackedChunk, label: string, env: ChunkEnv): Promise<ChunkResult> {
  const shown = chunk.parts.map((part) => {
    const planned = env.files.get(part.fileId) as PlannedFile;
    return { planned, hunks: part.hunks, diff: planned.diff as ParsedDiff };
  });
  const rendered = shown.map((s) =>
    renderFileDiff({
      path: s.planned.file.path,
      previousPath: s.planned.file.previousPath,
      changeType: s.planned.file.changeType,
      diff: s.diff,
      hunks: s.hunks,
    }),
  );
  const paths = shown.map((s) => s.planned.file.path);
  const purpose = env.purposeByTier?.[chunk.tier] ?? TIER_PURPOSE[chunk.tier];
  const model = await env.models.forPurpose(purpose);
  const pass = await env.protocol.pass('review', label, paths.length === 1 ? paths[0] : undefined);
  pass.event({
    kind: 'decision',
    name: 'chunk.shown',
    eventCategory: 'planning',
    body: {
      files: shown.map((s) => ({ path: s.planned.file.path, hunks: s.hunks })),
      tokens: chunk.tokens,
      tier: chunk.tier,
      purpose,
    },
  });

  const requestFor = (files: string[], temperature: number): AiChatRequest => ({
    system: reviewSystemPrompt({ instructions: instructionsFor(env.config, paths), dismissed: env.dismissed }),
    messages: [
      {
        role: 'user',
        content: reviewUserMessage({
          nonce: env.nonce,
          ...env.pullRequest,
          files,
          instructions: [],
          dismissed: [],
          focus: shown.flatMap((s) => {
            const lines = env.focus.get(s.planned.id);
            return lines ? [`${s.planned.file.path}: lines ${describeLines(lines)}`] : [];
          }),
          alreadyReported: shown.flatMap((s) =>
            (env.alreadyReported.get(s.planned.file.path.toLowerCase()) ?? [])
              .slice(0, 5)
              .map((t) => `${s.planned.file.path}: ${t}`),
          ),
        }),
      },
    ],
    temperature,
    maxOutputTokens: env.maxOutputTokens,
  });
  const chat = meteredChat(model, purpose, env.ledger, pass, env.clock, env.signal);
  const toolCalls = env.tools && model.supportsToolUse ? env.tools.callsByTier[chunk.tier] : 0;
  const ask = (request: AiChatRequest, onTranscript?: (reads: AiMessage[]) => void): Promise<ReviewOutcome> =>
    env.tools && toolCalls > 0
      ? askWithFileReads({
          chat,
          request,
          spec: REVIEW_ANSWER_SPEC,
          capabilities: model,
          slices: new FileSlices(env.tools.files, toolCalls, env.nonce),
          budget: toolCalls,
          pass,
          signal: env.signal,
          overHardCap: () => overHardCap(env),
          onTranscript,
        })
      : askStructured(chat, request, REVIEW_ANSWER_SPEC, model);
  const thorough = chunk.tier === 'high' ? env.thorough : undefined;
  let asked: Asked;
  try {
    asked = thorough
      ? await askSamples(
          thorough,
          shown,
          requestFor,
          ask,
          (request) => askStructured(chat, request, REVIEW_ANSWER_SPEC, model),
          { env, pass },
        )
      : {
          answers: [{ sample: 0, outcome: await ask(requestFor(rendered, env.temperature)) }],
          failures: [],
          notAsked: 0,
        };
  } catch (error) {
    if (env.signal.aborted) throw error;
    if (isContextLengthExceeded(error)) {
      const halves = splitChunk(chunk);
      pass.event({
        kind: 'decision',
        name: halves ? 'chunk.split' : 'chunk.tooLarge',
        eventCategory: 'planning',
        body: { reason: 'contextLengthExceeded', pieces: halves?.length ?? 0 },
      });
      await pass.complete(halves ? 'skipped' : 'failed');
      if (!halves) return failed(chunk, 'contextTooSmall', []);
      const results = [];
      for (const [i, half] of halves.entries())
        results.push(await reviewChunk(half, `${label} (part ${i + 1} of 2)`, env));
      return mergeResults(results);
    }
    await pass.complete('failed');
    return failed(chunk, modelErrorReason(error), []);
  }
  const parsing = asked.answers.map(({ outcome }) => ({
    rung: outcome.rung,
    ok: outcome.ok,
    repaired: outcome.ok && outcome.repaired,
  }));
  const usage = asked.answers.reduce((sum, a) => addUsage(sum, a.outcome.usage), emptyUsage());
  const resolver = resolverFor(shown, env.changedFiles);
  // Every sample's findings, anchored as a single answer's are; dropped ones stay with their reason.
  const anchoredBySample: EngineFinding[][] = [];
  for (const { sample, outcome } of asked.answers) {
    const at = thorough ? { sample } : {};
    if (!outcome.ok) {
      pass.event({
        kind: 'failure',
        name: 'answer.unreadable',
        eventCategory: 'ai-call',
        body: { ...at, rung: outcome.rung, calls: outcome.calls, problem: outcome.problem },
      });
      asked.failures.push({ sample, reason: 'unreadableAnswer' });
      continue;
    }
    const answer = outcome.value;
    pass.event({
      kind: 'decision',
      name: 'answer.read',
      eventCategory: 'ai-call',
      body: {
        ...at,
        rung: outcome.rung,
        repaired: outcome.repaired,
        findings: answer.value.findings.length,
        coercions: answer.coercions,
      },
    });
    for (const dropped of answer.dropped) {
      pass.event({ kind: 'decision', name: 'item.dropped', eventCategory: 'filtering', body: { ...at, ...dropped } });
    }
    anchoredBySample.push(
      answer.value.findings.map((proposed) => anchoredFinding(proposed, resolver, shown, env, pass)),
    );
  }
  if (anchoredBySample.length === 0) {
    // No sample answered: exactly where a single conversation would have failed.
    await pass.complete('failed', tokensOf(usage));
    return failed(chunk, asked.failures[0]?.reason ?? 'unreadableAnswer', parsing);
  }
  let findings = anchoredBySample.flat();
  let live = findings.filter((f) => f.publication !== 'dropped');
  if (thorough) {
    const unanchored = findings.filter((f) => f.publication === 'dropped');
    const agreed = agreeOn(anchoredBySample, thorough, asked, pass);
    findings = [...unanchored, ...agreed.findings];
    live = agreed.survivors;
  }
  // Under the soft spend cap the verifier checks only what would cost most if it were wrong.
  const toVerify = env.verifySevereOnly ? live.filter((f) => f.severity === 'error' || f.severity === 'warning') : live;
  if (env.verify && toVerify.length < live.length) {
    pass.event({
      kind: 'decision',
      name: 'verify.skipped',
      eventCategory: 'filtering',
      body: { findingIds: live.filter((f) => !toVerify.includes(f)).map((f) => f.id), reason: 'budget' },
    });
  }
  await pass.complete('succeeded', tokensOf(usage));

  if (env.verify && toVerify.length > 0) await verifyFindings(toVerify, rendered, resolver, shown, env);
  refuteClaims(live, shown, env.changedPaths);
  for (const f of findings) keyFinding(f);
  return { findings, failures: [], parsing };
}

type ReviewOutcome = StructuredOutcome<ReviewAnswer>;

/** What the chunk's asks returned: answers by sample (read or not), samples that failed, and those the hard cap kept back. */
interface Asked {
  answers: Array<{ sample: number; outcome: ReviewOutcome }>;
  failures: Array<{ sample: number; reason: string }>;
  notAsked: number;
}

const overHardCap = (env: ChunkEnv) => env.hardUsd !== undefined && env.ledger.costUsd() >= env.hardUsd;

const isContextLengthExceeded = (error: unknown) =>
  MarginError.isInstance(error) && error.details.providerFailure === 'contextLengthExceeded';

function modelErrorReason(error: unknown): string {
  const message = MarginError.isInstance(error) && error.code !== 'internal' ? error.message : 'The model call failed.';
  return `modelError: ${message}`;
}

/**
 * Thorough mode's samples. The first asks as a single conversation would (exploring with
 * `read_file` when the tier may): a window too small for it splits the chunk as without samples.
 * The others reuse the first one's reads rather than explore again — every sample answers with
 * the same code in view, and the reads are paid for once — and run in parallel on the job's free
 * call slots. Before each of them the hard cap is checked again. A sample that fails is recorded
 * and the consensus is made over those that answered.
 */
async function askSamples(
  thorough: ThoroughRun,
  shown: Shown[],
  requestFor: (files: string[], temperature: number) => AiChatRequest,
  ask: (request: AiChatRequest, onTranscript?: (reads: AiMessage[]) => void) => Promise<ReviewOutcome>,
  askPlain: (request: AiChatRequest) => Promise<ReviewOutcome>,
  { env, pass }: { env: ChunkEnv; pass: ProtocolPass },
): Promise<Asked> {
  const orders = sampleOrders(
    thorough.seed,
    shown.map((s) => ({ path: s.planned.file.path, hunks: s.hunks })),
    thorough.samples,
  );
  const requests = orders.map((order) =>
    requestFor(
      order.map(({ part, hunks }) => renderInOrder(shown[part] as Shown, hunks)),
      thorough.temperature,
    ),
  );
  const asked: Asked = { answers: [], failures: [], notAsked: 0 };
  let reads: AiMessage[] = [];
  const sample = async (index: number) => {
    const request = requests[index] as AiChatRequest;
    if (index > 0 && overHardCap(env)) {
      asked.notAsked++;
      return;
    }
    try {
      const outcome =
        index === 0
          ? await ask(request, (r) => {
              reads = r;
            })
          : await askPlain(
              reads.length > 0
                ? { ...request, messages: [...request.messages, ...reads, { role: 'user', content: ANSWER_NOW }] }
                : request,
            );
      asked.answers.push({ sample: index, outcome });
    } catch (error) {
      if (env.signal.aborted || (index === 0 && isContextLengthExceeded(error))) throw error;
      const reason = modelErrorReason(error);
      asked.failures.push({ sample: index, reason });
      pass.event({
        kind: 'failure',
        name: 'thorough.sampleFailed',
        eventCategory: 'ai-call',
        body: { sample: index, reason },
      });
    }
  };
  await sample(0);
  await runOnSlots(thorough.samples - 1, thorough.slots, (i) => sample(i + 1));
  asked.answers.sort((a, b) => a.sample - b.sample);
  return asked;
}

/** A file's hunks in the given order (the header first), rendered as `renderFileDiff` renders them. */
function renderInOrder(s: Shown, order: readonly number[]): string {
  const { header, hunks } = renderFileParts({
    path: s.planned.file.path,
    previousPath: s.planned.file.previousPath,
    changeType: s.planned.file.changeType,
    diff: s.diff,
    hunks: s.hunks,
  });
  const byIndex = new Map(hunks.map((h) => [h.index, h.text]));
  return [header, ...order.flatMap((i) => byIndex.get(i) ?? [])].join('\n');
}

/**
 * The consensus over the samples that answered: keeps what `minAgreement` of them produced, drops
 * the rest as `noConsensus`. With fewer answers than that it keeps the union of what answered
 * (identical findings merged), recorded as `thorough.degraded`, so thorough mode never loses what
 * a single conversation would have found.
 */
function agreeOn(
  bySample: EngineFinding[][],
  thorough: ThoroughRun,
  asked: Asked,
  pass: ProtocolPass,
): { findings: EngineFinding[]; survivors: EngineFinding[] } {
  const answered = bySample.length;
  const live = bySample.map((findings) => findings.filter((f) => f.publication !== 'dropped'));
  for (const f of live.flat()) keyFinding(f);
  const degraded = answered < thorough.minAgreement;
  const consensus = reachConsensus(live, answered, degraded ? 1 : thorough.minAgreement);
  for (const { finding, agreed, alsoProposedAs } of consensus.disagreed) {
    demote(finding, 'dropped', 'noConsensus');
    pass.event({
      kind: 'decision',
      name: 'finding.dropped',
      eventCategory: 'filtering',
      body: {
        findingId: finding.id,
        reason: 'noConsensus',
        path: finding.path,
        agreed,
        samples: answered,
        minAgreement: thorough.minAgreement,
        alsoProposedAs,
      },
    });
  }
  pass.event({
    kind: 'decision',
    name: 'thorough.samples',
    eventCategory: 'planning',
    body: {
      asked: thorough.samples - asked.notAsked,
      answered,
      failed: asked.failures,
      notAsked: asked.notAsked,
      temperature: thorough.temperature,
      minAgreement: thorough.minAgreement,
      groups: consensus.groups,
      survivors: consensus.survivors.map((f) => ({ findingId: f.id, ...f.consensus })),
    },
  });
  if (degraded) {
    pass.event({
      kind: 'warning',
      name: 'thorough.degraded',
      eventCategory: 'planning',
      body: {
        answered,
        minAgreement: thorough.minAgreement,
        reason: asked.notAsked > 0 ? 'hardCap' : 'samplesFailed',
        kept: 'union',
      },
    });
  }
  return {
    findings: [...consensus.survivors, ...consensus.disagreed.map((d) => d.finding)],
    survivors: consensus.survivors,
  };
}

function failed(chunk: PackedChunk, reason: string, parsing: ChunkResult['parsing']): ChunkResult {
  return { findings: [], failures: [{ fileIds: chunk.parts.map((p) => p.fileId), reason }], parsing };
}

function tokensOf(usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number }) {
  return {
    inputTokens: usage.inputTokens,
    cachedInputTokens: usage.cachedInputTokens,
    outputTokens: usage.outputTokens,
  };
}

type Shown = { planned: PlannedFile; hunks: number[]; diff: ParsedDiff };

function resolverFor(shown: Shown[], changed: PathResolver): PathResolver {
  return changed.with(
    shown.map((s): AnchorableFile => {
      const visible = { ...s.diff, hunks: s.diff.hunks.filter((h) => s.hunks.includes(h.index)) };
      return {
        path: s.planned.file.path,
        previousPath: s.planned.file.previousPath,
        deleted: false,
        index: indexDiff(s.planned.file.path, visible),
      };
    }),
  );
}

function anchoredFinding(
  proposed: ProposedFinding,
  resolver: PathResolver,
  shown: Shown[],
  env: ChunkEnv,
  pass: ProtocolPass,
): EngineFinding {
  const finding: EngineFinding = {
    id: env.newId(),
    source: 'model',
    chunk: 0,
    proposed,
    category: proposed.category,
    severity: proposed.severity,
    confidence: proposed.confidence,
    title: proposed.title,
    message: proposed.message,
    suggestion: proposed.suggestion,
    path: null,
    enclosingSymbol: '',
    publication: 'published',
  };
  placeFinding(finding, proposed, resolver, shown);
  if (finding.publication === 'dropped') {
    pass.event({
      kind: 'decision',
      name: 'finding.dropped',
      eventCategory: 'filtering',
      body: { findingId: finding.id, reason: finding.reason, path: proposed.path },
    });
  } else if (finding.anchor && finding.anchor.method !== 'quote') {
    pass.event({
      kind: 'decision',
      name: 'finding.anchored',
      eventCategory: 'filtering',
      body: {
        findingId: finding.id,
        method: finding.anchor.method,
        line: finding.anchor.startLine,
        modelLine: proposed.startLine,
      },
    });
  }
  return finding;
}

function placeFinding(finding: EngineFinding, proposed: ProposedFinding, resolver: PathResolver, shown: Shown[]): void {
  const placed = anchorFinding(proposed, resolver);
  finding.anchor = undefined;
  if (placed.kind === 'dropped') {
    finding.path = proposed.path;
    demote(finding, 'dropped', placed.reason);
    return;
  }
  if (placed.kind === 'prLevel') {
    finding.path = placed.path;
    return;
  }
  finding.anchor = placed.anchor;
  finding.path = placed.anchor.path;
  if (placed.anchor.note) finding.message = `${placed.anchor.note} ${finding.message}`;
  const diff = shown.find((s) => s.planned.file.path === placed.anchor.path)?.diff;
  const hunk = diff?.hunks.find((h) =>
    h.lines.some((l) =>
      placed.anchor.side === 'old'
        ? l.oldLine === placed.anchor.startLine && l.kind === 'removed'
        : l.newLine === placed.anchor.startLine,
    ),
  );
  finding.enclosingSymbol = hunk?.section ?? '';
}

function keyFinding(f: EngineFinding): void {
  f.keys = findingKeys({
    path: f.anchor?.path ?? f.path ?? '',
    anchorText: f.anchor?.anchorText ?? '',
    enclosingSymbol: f.enclosingSymbol,
    category: f.category,
    ruleId: f.proposed.ruleId,
    title: f.title,
    message: f.proposed.message,
  });
}

/** Every finding of the chunk in one call to a (cheaper) verifying model that can refute. */
async function verifyFindings(
  findings: EngineFinding[],
  rendered: string[],
  resolver: PathResolver,
  shown: Shown[],
  env: ChunkEnv,
): Promise<void> {
  const model: ReviewModel = await env.models.forPurpose('reviewVerification');
  const pass = await env.protocol.pass(
    'verify',
    `Verify ${findings.length} finding${findings.length === 1 ? '' : 's'}`,
  );
  const ids = new Map(findings.map((f, i) => [`F${i + 1}`, f]));
  // Only the files the findings are about: the rest of a packed chunk is tokens the check does not need.
  const about = new Set(findings.map((f) => (f.anchor?.path ?? f.path ?? '').toLowerCase()));
  const relevant = rendered.filter((_, i) => about.has(shown[i]?.planned.file.path.toLowerCase() ?? ''));
  const diffs = relevant.length > 0 ? relevant : rendered;
  const listing = [...ids].map(([id, f]) =>
    [
      `${id}. ${f.anchor ? `${f.anchor.path} lines ${f.anchor.startLine}–${f.anchor.endLine}${f.anchor.side === 'old' ? ' (removed lines)' : ''}` : (f.path ?? 'the pull request')} [${f.category}, ${f.severity}]`,
      `Title: ${f.title}`,
      `Quote: ${f.proposed.quote}`,
      `Message: ${f.proposed.message}`,
      `Evidence: ${f.proposed.evidence}`,
      `Suggestion: ${f.suggestion ?? 'none'}`,
    ].join('\n'),
  );
  const request: AiChatRequest = {
    system: VERIFY_SYSTEM_PROMPT,
    messages: [
      {
        role: 'user',
        content: [
          'Findings to check:',
          fence('findings', env.nonce, listing.join('\n\n')),
          'The diff they are about:',
          fence('diff', env.nonce, diffs.join('\n\n')),
        ].join('\n'),
      },
    ],
    temperature: 0,
    maxOutputTokens: env.maxOutputTokens,
  };
  const chat = meteredChat(model, 'reviewVerification', env.ledger, pass, env.clock, env.signal);
  let verdicts: Awaited<ReturnType<typeof askStructured<import('../verify/verify-answer.js').Verdict[]>>> | undefined;
  try {
    verdicts = await askStructured(chat, request, VERIFY_ANSWER_SPEC, model);
  } catch (error) {
    if (env.signal.aborted) throw error;
    verdicts = undefined;
  }
  const byId = verdicts?.ok ? new Map(verdicts.value.map((v) => [v.id, v])) : new Map();
  const degraded = !verdicts?.ok;
  if (degraded) {
    pass.event({
      kind: 'failure',
      name: 'verify.degraded',
      eventCategory: 'filtering',
      body: { reason: verdicts ? 'unreadableAnswer' : 'modelError' },
    });
  }
  for (const [id, f] of ids) {
    const verdict = byId.get(id);
    const before = f.publication;
    applyVerdict(f, degraded ? undefined : verdict);
    if (verdict?.locatedQuote && f.anchor && f.anchor.method !== 'quote') {
      placeFinding(f, { ...f.proposed, quote: verdict.locatedQuote }, resolver, shown);
    }
    pass.event({
      kind: 'decision',
      name: 'finding.verified',
      eventCategory: 'filtering',
      body: {
        findingId: f.id,
        score: verdict?.score ?? null,
        why: verdict?.why ?? null,
        features: verdict?.features ?? null,
        publication: f.publication,
        ...(f.publication !== before ? { reason: f.reason } : {}),
      },
    });
  }
  await pass.complete(degraded ? 'failed' : 'succeeded', verdicts ? tokensOf(verdicts.usage) : {});
}

const DEFINITION = (symbol: string) =>
  new RegExp(
    `\\b(?:function|const|let|var|class|def|func|interface|type|enum|struct|import)\\b[^\\n]*\\b${escapeRegExp(symbol)}\\b`,
  );

/**
 * Deterministic checks of what a finding claims, against the code the review saw: "unused" when
 * the symbol appears on another shown line, "undefined" when a definition or import of it is shown,
 * "missing file" when the file is part of the change. A refuted finding is dropped, and so are
 * siblings in the same file naming the same symbol.
 */
function refuteClaims(findings: EngineFinding[], shown: Shown[], changed: ChunkEnv['changedPaths']): void {
  const refutedSymbols = new Map<string, Set<string>>();
  for (const f of findings) {
    const { kind, symbol, path } = f.proposed.claim;
    let refuted = false;
    if ((kind === 'unused' || kind === 'undefined') && symbol) {
      const word = new RegExp(`\\b${escapeRegExp(symbol)}\\b`);
      for (const s of shown) {
        for (const hunk of s.diff.hunks) {
          for (const line of hunk.lines) {
            if (line.kind === 'removed') continue;
            const own =
              f.anchor &&
              s.planned.file.path === f.anchor.path &&
              line.newLine !== null &&
              line.newLine >= f.anchor.startLine &&
              line.newLine <= f.anchor.endLine;
            if (kind === 'unused' && !own && word.test(line.text)) refuted = true;
            if (kind === 'undefined' && DEFINITION(symbol).test(line.text)) refuted = true;
          }
        }
      }
    }
    if (kind === 'missing-file' && path)
      refuted = changed.some((c) => c.path.toLowerCase() === path.replace(/^\.?\//, '').toLowerCase());
    if (refuted && demote(f, 'dropped', 'refuted') && symbol && f.path) {
      const set = refutedSymbols.get(f.path) ?? new Set();
      set.add(symbol);
      refutedSymbols.set(f.path, set);
    }
  }
  for (const f of findings) {
    const symbols = f.path ? refutedSymbols.get(f.path) : undefined;
    if (symbols && [...symbols].some((s) => f.message.includes(`\`${s}\``))) demote(f, 'dropped', 'refuted');
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function splitChunk(chunk: PackedChunk): PackedChunk[] | undefined {
  if (chunk.parts.length > 1) {
    const half = Math.ceil(chunk.parts.length / 2);
    return [chunk.parts.slice(0, half), chunk.parts.slice(half)].map((parts) => ({
      parts,
      tokens: Math.ceil(chunk.tokens / 2),
      tier: chunk.tier,
    }));
  }
  const part = chunk.parts[0];
  if (!part || part.hunks.length < 2) return undefined;
  const half = Math.ceil(part.hunks.length / 2);
  return [part.hunks.slice(0, half), part.hunks.slice(half)].map((hunks) => ({
    parts: [{ fileId: part.fileId, hunks, whole: false }],
    tokens: Math.ceil(chunk.tokens / 2),
    tier: chunk.tier,
  }));
}

function mergeResults(results: ChunkResult[]): ChunkResult {
  return {
    findings: results.flatMap((r) => r.findings),
    failures: results.flatMap((r) => r.failures),
    parsing: results.flatMap((r) => r.parsing),
  };
}
