import {
  type AiChatRequest,
  type AiPurpose,
  addUsage,
  askStructured,
  emptyUsage,
  type OutputRung,
} from '../../ai-model/index.js';
import type { Clock } from '../../kernel/index.js';
import type { PathResolver } from '../anchor/anchor.js';
import { anchoredFinding, type ChunkAnchoring, chunkResolver } from '../anchor/place-finding.js';
import { instructionsFor, type RepoConfig } from '../config/repo-config.js';
import type { EngineFinding } from '../engine-finding.js';
import type { SecretRedactor } from '../hostile/redact-secrets.js';
import { keyFinding } from '../identity/key-finding.js';
import { decisionsForFile } from '../memory/memory-similarity.js';
import type { PastDecision } from '../memory/thread-memory.js';
import { REVIEW_ANSWER_SPEC, REVIEW_ANSWER_WITH_KNOWLEDGE_SPEC } from '../output/review-answer.js';
import { type PackedChunk, splitChunk } from '../plan/pack-chunks.js';
import { TIER_PURPOSE, type Tier } from '../plan/tiers.js';
import { reviewSystemPrompt, reviewUserMessage } from '../prompt/review-prompt.js';
import type { ProtocolPass, ProtocolWriter } from '../protocol/protocol-writer.js';
import type { KnowledgeLookupV1, ReviewModel, ReviewModels } from '../review-engine-v1.js';
import { isContextLengthExceeded, modelErrorReason } from '../review-failure.js';
import { agreeOnSamples } from '../thorough/agree-on-samples.js';
import { type Asked, askSamples, type ChunkAsks, type ThoroughRun } from '../thorough/ask-samples.js';
import { askWithFileReads } from '../tools/explore.js';
import { FileSlices } from '../tools/file-slices.js';
import type { HeadFiles } from '../tools/head-files.js';
import { KnowledgeAnswers, KnowledgeCitations } from '../tools/knowledge-tools.js';
import type { ToolCallsByTier } from '../tools/read-file-tool.js';
import { refuteClaims } from '../verify/refute-claims.js';
import { verifyFindings } from '../verify/verify-findings.js';
import { describeLines } from './focus-ranges.js';
import type { PlannedFile } from './prepare-files.js';
import { renderShown, type ShownFile, showChunk } from './shown-file.js';
import { meteredChat, passTokens, type UsageLedger } from './usage-ledger.js';

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
  /** What people decided about findings in this repository (thread memory); absent or empty, none. */
  pastDecisions?: readonly PastDecision[] | undefined;
  /**
   * Read-only file reads before the answer, for models with `supportsToolUse`; absent when every
   * tier's budget is 0 or the source cannot read files.
   */
  tools?:
    | {
        files: HeadFiles;
        callsByTier: ToolCallsByTier;
        /** The job's knowledge scope with the job's redactor, when it has one: offered with `read_file`. */
        knowledge?: { lookup: KnowledgeLookupV1; redactor: SecretRedactor } | undefined;
      }
    | undefined;
  /** The hard spend cap, checked again before each tool round and each thorough sample. */
  hardUsd?: number | undefined;
  /** Thorough mode for this job (reference §6.5), absent when off; it applies to high-tier chunks only. */
  thorough?: ThoroughRun | undefined;
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
  const shown = showChunk(chunk, env.files);
  const rendered = shown.map(renderShown);
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
  const asks = chunkAsks(chunk, shown, { model, purpose, pass }, env);
  const thorough = chunk.tier === 'high' ? env.thorough : undefined;
  let asked: Asked;
  try {
    asked = thorough
      ? await askSamples(thorough, shown, asks, { signal: env.signal, overHardCap: () => overHardCap(env), pass })
      : {
          answers: [{ sample: 0, outcome: await asks.ask(asks.requestFor(rendered, env.temperature)) }],
          failures: [],
          notAsked: 0,
        };
  } catch (error) {
    if (env.signal.aborted) throw error;
    if (isContextLengthExceeded(error)) return reviewHalves(chunk, label, env, pass);
    await pass.complete('failed');
    return failed(chunk, modelErrorReason(error), []);
  }
  const parsing = asked.answers.map(({ outcome }) => ({
    rung: outcome.rung,
    ok: outcome.ok,
    repaired: outcome.ok && outcome.repaired,
  }));
  const usage = asked.answers.reduce((sum, a) => addUsage(sum, a.outcome.usage), emptyUsage());
  const resolver = chunkResolver(shown, env.changedFiles);
  const anchoredBySample = readAnswers(asked, thorough !== undefined, { resolver, shown, newId: env.newId, pass });
  if (asks.citations) for (const f of anchoredBySample.flat()) citeKnowledge(f, asks.citations);
  if (anchoredBySample.length === 0) {
    // No sample answered: exactly where a single conversation would have failed.
    await pass.complete('failed', passTokens(usage));
    return failed(chunk, asked.failures[0]?.reason ?? 'unreadableAnswer', parsing);
  }
  let findings = anchoredBySample.flat();
  let live = findings.filter((f) => f.publication !== 'dropped');
  if (thorough) {
    const unanchored = findings.filter((f) => f.publication === 'dropped');
    const agreed = agreeOnSamples(anchoredBySample, thorough, asked, pass);
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
  await pass.complete('succeeded', passTokens(usage));

  if (env.verify && toVerify.length > 0) {
    await verifyFindings(toVerify, { rendered, resolver, shown, knowledge: asks.citations }, env);
  }
  refuteClaims(live, shown, env.changedPaths);
  for (const f of findings) keyFinding(f);
  return { findings, failures: [], parsing };
}

/**
 * How the chunk's model is asked: the request (fixed system prompt, the chunk's files in a given
 * order with its focus lines and findings already reported there), and an ask that explores with
 * file reads first when the tier has reads and the model can use tools.
 */
function chunkAsks(
  chunk: PackedChunk,
  shown: readonly ShownFile[],
  { model, purpose, pass }: { model: ReviewModel; purpose: AiPurpose; pass: ProtocolPass },
  env: ChunkEnv,
): ChunkAsks & { citations?: KnowledgeCitations | undefined } {
  const paths = shown.map((s) => s.planned.file.path);
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
          pastDecisions: shown.flatMap((s) =>
            decisionsForFile(s.planned.file.path, env.pastDecisions ?? []).map(
              (d) =>
                `${s.planned.file.path}: ${PAST_INTENT[d.intent]}: ${d.summary.replace(/\s+/g, ' ').slice(0, 300)}`,
            ),
          ),
        }),
      },
    ],
    temperature,
    maxOutputTokens: env.maxOutputTokens,
  });
  const chat = meteredChat(model, purpose, env.ledger, pass, env.clock, env.signal);
  const toolCalls = env.tools && model.supportsToolUse ? env.tools.callsByTier[chunk.tier] : 0;
  const tools = toolCalls > 0 ? env.tools : undefined;
  // Knowledge goes with the tier's tools: offered only where `read_file` is, and its labels are the chunk's.
  const knowledge = tools?.knowledge;
  const citations = knowledge ? new KnowledgeCitations() : undefined;
  const spec = knowledge ? REVIEW_ANSWER_WITH_KNOWLEDGE_SPEC : REVIEW_ANSWER_SPEC;
  const askPlain = (request: AiChatRequest) => askStructured(chat, request, spec, model);
  return {
    requestFor,
    askPlain,
    citations,
    ask: (request, onTranscript) =>
      tools
        ? askWithFileReads({
            chat,
            request,
            spec,
            capabilities: model,
            slices: new FileSlices(
              tools.files,
              toolCalls,
              env.nonce,
              knowledge && citations
                ? new KnowledgeAnswers(knowledge.lookup, knowledge.redactor, env.nonce, citations)
                : undefined,
            ),
            knowledge: knowledge !== undefined,
            budget: toolCalls,
            pass,
            signal: env.signal,
            overHardCap: () => overHardCap(env),
            onTranscript,
          })
        : askPlain(request),
  };
}

/**
 * Every sample's answer read: an unreadable one is a failure of that sample; a readable one's
 * findings are anchored (dropped ones stay, with their reason). By sample, those that answered.
 */
function readAnswers(asked: Asked, thorough: boolean, anchoring: ChunkAnchoring): EngineFinding[][] {
  const { pass } = anchoring;
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
    anchoredBySample.push(answer.value.findings.map((proposed) => anchoredFinding(proposed, anchoring)));
  }
  return anchoredBySample;
}

/** The model's window could not hold the chunk: each half is reviewed alone (or the chunk fails when it is one hunk). */
async function reviewHalves(
  chunk: PackedChunk,
  label: string,
  env: ChunkEnv,
  pass: ProtocolPass,
): Promise<ChunkResult> {
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
  for (const [i, half] of halves.entries()) results.push(await reviewChunk(half, `${label} (part ${i + 1} of 2)`, env));
  return {
    findings: results.flatMap((r) => r.findings),
    failures: results.flatMap((r) => r.failures),
    parsing: results.flatMap((r) => r.parsing),
  };
}

/** The knowledge results a finding names, as its citations (labels the chunk never gave are ignored). */
function citeKnowledge(finding: EngineFinding, citations: KnowledgeCitations): void {
  const refs = finding.proposed.knowledgeRefs;
  if (!refs || refs.length === 0) return;
  const cited = citations.resolve(refs);
  if (cited.length > 0) finding.citations = cited;
}

const overHardCap = (env: ChunkEnv) => env.hardUsd !== undefined && env.ledger.costUsd() >= env.hardUsd;

function failed(chunk: PackedChunk, reason: string, parsing: ChunkResult['parsing']): ChunkResult {
  return { findings: [], failures: [{ fileIds: chunk.parts.map((p) => p.fileId), reason }], parsing };
} /** A past decision as the reviewing model reads it. */
const PAST_INTENT: Record<PastDecision['intent'], string> = {
  rejected: 'rejected by the team',
  acceptedByHuman: 'accepted without a change',
  claimsFix: 'fixed',
};
