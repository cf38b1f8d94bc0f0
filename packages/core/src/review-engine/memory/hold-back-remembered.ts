import { demote, type EngineFinding, isCandidate } from '../engine-finding.js';
import type { IdentityVectors } from '../pipeline/embed-findings.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import { type MemoryModelEnv, memoryModel, reconsiderFindings } from './memory-model.js';
import { closestHoldingMemory, type MemoryMatch } from './memory-similarity.js';
import type { PastDecision } from './thread-memory.js';

/**
 * Holds back a finding that matches what people rejected, or accepted without a change, on this
 * repository before: `suppressed` / `memory`, with the memory's id. With a `memoryReconsideration`
 * model mapped, each match is put to it instead and its verdict decides (keep or hold back); when
 * it cannot answer, the match holds the finding back. Every decision is a `memory` event.
 */
export async function holdBackRemembered(
  findings: readonly EngineFinding[],
  decisions: readonly PastDecision[],
  vectors: IdentityVectors | undefined,
  env: MemoryModelEnv,
  pass: ProtocolPass,
): Promise<void> {
  if (decisions.length === 0) return;
  const matched = new Map<EngineFinding, MemoryMatch>();
  for (const f of findings) {
    if (!isCandidate(f) || f.source !== 'model' || f.places) continue;
    const match = closestHoldingMemory(
      {
        path: f.anchor?.path ?? f.path,
        title: f.title,
        message: f.message,
        fingerprint: f.keys?.fingerprint ?? null,
        vector: vectors?.findings.get(f),
      },
      decisions,
    );
    if (match) matched.set(f, match);
  }
  if (matched.size === 0) return;
  const model = await memoryModel(env.models);
  const ids = new Map([...matched.keys()].map((f, i) => [`F${i + 1}`, f]));
  const verdicts = model
    ? await reconsiderFindings(
        model,
        new Map(
          [...ids].map(([id, f]) => {
            const m = matched.get(f) as MemoryMatch;
            return [id, { finding: `${f.title}\n${f.message}`, past: m.decision.summary, intent: m.decision.intent }];
          }),
        ),
        env,
        pass,
      )
    : undefined;
  for (const [id, f] of ids) {
    const { decision, similarity, by } = matched.get(f) as MemoryMatch;
    const verdict = verdicts?.get(id);
    const detail = {
      findingId: f.id,
      memoryId: decision.id,
      intent: decision.intent,
      source: decision.source,
      similarity: Math.round(similarity * 1000) / 1000,
      matchedBy: by,
    };
    if (verdict?.yes) {
      pass.event({
        kind: 'decision',
        name: 'memory.reconsidered',
        eventCategory: 'memory',
        body: { ...detail, verdict: 'keep', why: verdict.why },
      });
      continue;
    }
    if (demote(f, 'suppressed', 'memory')) {
      f.memoryId = decision.id;
      pass.event({
        kind: 'decision',
        name: verdict ? 'memory.reconsidered' : 'finding.suppressed',
        eventCategory: 'memory',
        body: { ...detail, reason: 'memory', ...(verdict ? { verdict: 'suppress', why: verdict.why } : {}) },
      });
    }
  }
}
