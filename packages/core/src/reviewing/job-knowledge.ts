import { MarginError } from '../kernel/index.js';
import type { KnowledgeLookupV1, ProtocolWriter } from '../review-engine/index.js';
import type { ReviewJobRecord } from './job-record.js';
import type { ReviewingDeps } from './reviewing-deps.js';

/**
 * The job's code knowledge for its review, from the host's `knowledgeForJob`. Knowledge only helps
 * a review, so a lookup that cannot be opened does not fail the job: the review goes on without the
 * knowledge tools and the protocol says why (a `memory` failure). A source the job snapshotted that
 * was deleted since is left out with a `memory` warning naming its id. A stopped job still stops.
 */
export async function jobKnowledge(
  deps: Pick<ReviewingDeps, 'knowledgeForJob'>,
  job: ReviewJobRecord,
  signal: AbortSignal,
  protocol: ProtocolWriter,
): Promise<KnowledgeLookupV1 | undefined> {
  if (!deps.knowledgeForJob) return undefined;
  const missing: string[] = [];
  try {
    const lookup = await deps.knowledgeForJob(job, signal, { missingSources: (ids) => missing.push(...ids) });
    if (missing.length > 0) {
      // The job's snapshot named sources deleted since: reviewed without them, as the protocol says.
      const pass = await protocol.pass('knowledge', 'Code knowledge sources missing');
      pass.event({
        kind: 'warning',
        name: 'knowledge.sourceMissing',
        eventCategory: 'memory',
        body: { sourceIds: missing },
      });
      await pass.complete('succeeded');
    }
    return lookup;
  } catch (error) {
    if (signal.aborted) throw error;
    const pass = await protocol.pass('knowledge', 'Code knowledge unavailable');
    pass.event({
      kind: 'failure',
      name: 'knowledge.unavailable',
      eventCategory: 'memory',
      // The code, never the message: it may name a source the job's reader cannot see.
      body: { reason: MarginError.isInstance(error) ? error.code : 'unexpected' },
    });
    await pass.complete('failed');
    return undefined;
  }
}
