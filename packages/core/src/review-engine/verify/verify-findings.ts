import { type AiChatRequest, askStructured, type StructuredOutcome } from '../../ai-model/index.js';
import type { Clock } from '../../kernel/index.js';
import type { PathResolver } from '../anchor/anchor.js';
import { placeFinding } from '../anchor/place-finding.js';
import type { EngineFinding } from '../engine-finding.js';
import { applyVerdict } from '../gate/gate.js';
import { fence } from '../hostile/fence.js';
import type { ShownFile } from '../pipeline/shown-file.js';
import { meteredChat, passTokens, type UsageLedger } from '../pipeline/usage-ledger.js';
import { VERIFY_SYSTEM_PROMPT } from '../prompt/review-prompt.js';
import type { ProtocolWriter } from '../protocol/protocol-writer.js';
import type { ReviewModel, ReviewModels } from '../review-engine-v1.js';
import type { KnowledgeCitations } from '../tools/knowledge-tools.js';
import { VERIFY_ANSWER_SPEC, type Verdict } from './verify-answer.js';

/** What verifying a chunk's findings needs of the run. */
export interface VerifyEnv {
  models: ReviewModels;
  ledger: UsageLedger;
  protocol: ProtocolWriter;
  clock: Clock;
  signal: AbortSignal;
  nonce: string;
  maxOutputTokens: number;
}

/** The chunk the findings came from: its rendered diffs, and where its findings anchor. */
export interface VerifiedChunk {
  rendered: readonly string[];
  resolver: PathResolver;
  shown: readonly ShownFile[];
  /** The knowledge passages the chunk's model was shown, so findings citing them are checked against them. */
  knowledge?: KnowledgeCitations | undefined;
}

/** Characters of cited knowledge passages one verifying call is shown at most. */
export const MAX_VERIFY_KNOWLEDGE_CHARS = 8_000;

/**
 * Every finding of the chunk in one call to a (cheaper) verifying model that can refute: each
 * verdict scores the finding and may locate its quote, which re-anchors it. When the verifier
 * fails, the findings keep their confidence, errors are capped at warnings, and the pass is failed.
 */
export async function verifyFindings(findings: EngineFinding[], chunk: VerifiedChunk, env: VerifyEnv): Promise<void> {
  const model: ReviewModel = await env.models.forPurpose('reviewVerification');
  const pass = await env.protocol.pass(
    'verify',
    `Verify ${findings.length} finding${findings.length === 1 ? '' : 's'}`,
  );
  const ids = new Map(findings.map((f, i) => [`F${i + 1}`, f]));
  const chat = meteredChat(model, 'reviewVerification', env.ledger, pass, env.clock, env.signal);
  let verdicts: StructuredOutcome<Verdict[]> | undefined;
  try {
    verdicts = await askStructured(chat, verifyRequest(ids, chunk, env), VERIFY_ANSWER_SPEC, model);
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
      placeFinding(f, { ...f.proposed, quote: verdict.locatedQuote }, chunk.resolver, chunk.shown);
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
  await pass.complete(degraded ? 'failed' : 'succeeded', verdicts ? passTokens(verdicts.usage) : {});
}

/** The findings listed by id, and the diffs of the files they are about. */
function verifyRequest(ids: ReadonlyMap<string, EngineFinding>, chunk: VerifiedChunk, env: VerifyEnv): AiChatRequest {
  const { rendered, shown } = chunk;
  // Only the files the findings are about: the rest of a packed chunk is tokens the check does not need.
  const about = new Set([...ids.values()].map((f) => (f.anchor?.path ?? f.path ?? '').toLowerCase()));
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
      ...(f.citations && f.citations.length > 0
        ? [`Relies on: ${f.citations.map((c) => chunk.knowledge?.passageOf(c)?.label ?? c.path).join(', ')}`]
        : []),
    ].join('\n'),
  );
  const passages = citedPassages([...ids.values()], chunk.knowledge);
  return {
    system: VERIFY_SYSTEM_PROMPT,
    messages: [
      {
        role: 'user',
        content: [
          'Findings to check:',
          fence('findings', env.nonce, listing.join('\n\n')),
          'The diff they are about:',
          fence('diff', env.nonce, diffs.join('\n\n')),
          ...(passages.length > 0
            ? [
                'Code from the indexed repositories the reviewer consulted, which the findings cite (it may be at another commit than this diff):',
                fence('knowledge', env.nonce, passages.join('\n\n')),
              ]
            : []),
        ].join('\n'),
      },
    ],
    temperature: 0,
    maxOutputTokens: env.maxOutputTokens,
  };
}

/** The passages the findings cite, each once, labelled as the reviewer saw them, within the cap. */
function citedPassages(findings: readonly EngineFinding[], knowledge: KnowledgeCitations | undefined): string[] {
  if (!knowledge) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  let chars = 0;
  for (const c of findings.flatMap((f) => f.citations ?? [])) {
    const passage = knowledge.passageOf(c);
    if (!passage || seen.has(passage.label)) continue;
    seen.add(passage.label);
    const text = `[${passage.label}] ${c.path}, lines ${c.startLine}–${c.endLine}:\n${passage.text}`;
    if (chars + text.length > MAX_VERIFY_KNOWLEDGE_CHARS) break;
    out.push(text);
    chars += text.length;
  }
  return out;
}
