import type { Clock } from '../../kernel/index.js';
import { MarginError } from '../../kernel/index.js';
import type { ReviewThread } from '../../scm-provider/index.js';
import { threadNear, threadText } from '../dedupe/dedupe.js';
import { type EngineFinding, isCandidate } from '../engine-finding.js';
import type { DismissedFinding, KnownFinding } from '../memory/review-memory.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { ReviewModels } from '../review-engine-v1.js';
import type { UsageLedger } from './usage-ledger.js';

/** Vectors by meaning, for the identity checks; absent when no embedding model serves the client. */
export interface IdentityVectors {
  findings: Map<EngineFinding, number[]>;
  known: Map<string, number[]>;
  dismissals: Map<string, number[]>;
  /** People's threads next to a candidate, by thread id. */
  threads: Map<string, number[]>;
}

const BATCH = 96;
/** A thread's text is cut here: the point a reviewer makes is in its first comments. */
const THREAD_TEXT_CHARS = 2_000;

/**
 * Embeds `path`, title and message of this run's candidate findings, of the findings earlier reviews
 * posted, of the client's dismissals and of people's threads next to a candidate, so identity can
 * also match what is worded differently. One
 * model, batched calls, counted under `embeddingDefault`. Without the purpose mapped, or when the call
 * fails, identity falls back to identifiers and words (recorded, never fatal).
 */
export async function embedForIdentity(input: {
  models: ReviewModels;
  findings: readonly EngineFinding[];
  known: readonly KnownFinding[];
  dismissals: readonly DismissedFinding[];
  threads: readonly ReviewThread[];
  ledger: UsageLedger;
  pass: ProtocolPass;
  clock: Clock;
  signal: AbortSignal;
}): Promise<IdentityVectors | undefined> {
  const candidates = input.findings.filter((f) => isCandidate(f) && f.source === 'model');
  if (candidates.length === 0) return undefined;
  // Only what a candidate could match: identity never crosses files, so the rest costs tokens for nothing.
  const paths = new Set<string>();
  for (const f of candidates) {
    for (const p of [f.anchor?.path ?? f.path, f.anchor?.previousPath]) if (p) paths.add(p.toLowerCase());
  }
  const known = input.known.filter((k) => paths.has(k.path.toLowerCase()));
  const dismissals = input.dismissals.filter(
    (d) => !d.filePath || paths.has(d.filePath.replace(/^\/+/, '').toLowerCase()),
  );
  // Our own threads are matched by their markers; only a person's thread next to a candidate can echo it.
  const threads = input.threads.filter(
    (t) => !t.marker?.startsWith('margin:') && candidates.some((f) => threadNear(t, f)),
  );
  const started = input.clock.now().getTime();
  const texts = [
    ...candidates.map((f) => `${f.anchor?.path ?? f.path ?? ''}\n${f.title}\n${f.message}`),
    ...known.map((k) => `${k.path}\n${k.title}\n${k.message}`),
    ...dismissals.map((d) => `${d.filePath ?? ''}\n${d.findingMessage}`),
    ...threads.map((t) => `${t.anchor?.filePath ?? ''}\n${threadText(t).slice(0, THREAD_TEXT_CHARS)}`),
  ];
  try {
    const model = await input.models.embeddings?.();
    if (!model) return undefined;
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const result = await model.model.embed(texts.slice(i, i + BATCH), { signal: input.signal });
      input.ledger.add(model, 'embeddingDefault', result.usage, input.clock.now().toISOString());
      vectors.push(...result.vectors);
    }
    input.pass.event({
      kind: 'call',
      name: 'embed',
      eventCategory: 'ai-call',
      durationMs: input.clock.now().getTime() - started,
      body: { purpose: 'embeddingDefault', model: model.model.remoteModelId, texts: texts.length },
    });
    const at = (i: number) => vectors[i] ?? [];
    return {
      findings: new Map(candidates.map((f, i) => [f, at(i)])),
      known: new Map(known.map((k, i) => [k.id, at(candidates.length + i)])),
      dismissals: new Map(dismissals.map((d, i) => [d.id, at(candidates.length + known.length + i)])),
      threads: new Map(
        threads.map((t, i) => [t.threadId, at(candidates.length + known.length + dismissals.length + i)]),
      ),
    };
  } catch (error) {
    if (input.signal.aborted) throw error;
    input.pass.event({
      kind: 'warning',
      name: 'embed.failed',
      eventCategory: 'ai-call',
      body: { message: MarginError.isInstance(error) ? error.message : 'The embedding call failed.' },
    });
    return undefined;
  }
}
