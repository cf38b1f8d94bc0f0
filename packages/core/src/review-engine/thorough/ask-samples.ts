import type { AiChatRequest, AiMessage, StructuredOutcome } from '../../ai-model/index.js';
import { renderFileParts } from '../diff/render-diff.js';
import type { ReviewAnswer } from '../output/review-answer.js';
import { renderInput, type ShownFile } from '../pipeline/shown-file.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import { isContextLengthExceeded, modelErrorReason } from '../review-failure.js';
import { ANSWER_NOW } from '../tools/explore.js';
import { type CallSlots, runOnSlots } from './call-slots.js';
import { sampleOrders } from './hunk-order.js';
import type { ThoroughSettings } from './thorough-settings.js';

/** Thorough mode for one job (reference §6.5): its settings, and what its chunks share. */
export interface ThoroughRun extends ThoroughSettings {
  /** Seeds the samples' hunk orders: the job's id, so a rerun of the job shows the same orders. */
  seed: string;
  /** The job's bound on calls in flight; the chunk running holds one of them. */
  slots: CallSlots;
}

export type AnswerOutcome = StructuredOutcome<ReviewAnswer>;

/** What a chunk's asks returned: answers by sample (read or not), samples that failed, and those the hard cap kept back. */
export interface Asked {
  answers: Array<{ sample: number; outcome: AnswerOutcome }>;
  failures: Array<{ sample: number; reason: string }>;
  notAsked: number;
}

/** How a chunk's conversation is asked for an answer. */
export interface ChunkAsks {
  /** The chunk's request with its files rendered in this order, at this temperature. */
  requestFor(files: string[], temperature: number): AiChatRequest;
  /** An ask as a single conversation makes it (exploring with file reads when the tier may). */
  ask(request: AiChatRequest, onTranscript?: (reads: AiMessage[]) => void): Promise<AnswerOutcome>;
  /** An ask with no exploration. */
  askPlain(request: AiChatRequest): Promise<AnswerOutcome>;
}

/**
 * Thorough mode's samples. The first asks as a single conversation would (exploring with
 * `read_file` when the tier may): a window too small for it splits the chunk as without samples.
 * The others reuse the first one's reads rather than explore again — every sample answers with
 * the same code in view, and the reads are paid for once — and run in parallel on the job's free
 * call slots. Before each of them the hard cap is checked again. A sample that fails is recorded
 * and the consensus is made over those that answered.
 */
export async function askSamples(
  thorough: ThoroughRun,
  shown: readonly ShownFile[],
  asks: ChunkAsks,
  { signal, overHardCap, pass }: { signal: AbortSignal; overHardCap: () => boolean; pass: ProtocolPass },
): Promise<Asked> {
  const orders = sampleOrders(
    thorough.seed,
    shown.map((s) => ({ path: s.planned.file.path, hunks: s.hunks })),
    thorough.samples,
  );
  const requests = orders.map((order) =>
    asks.requestFor(
      order.map(({ part, hunks }) => renderInOrder(shown[part] as ShownFile, hunks)),
      thorough.temperature,
    ),
  );
  const asked: Asked = { answers: [], failures: [], notAsked: 0 };
  let reads: AiMessage[] = [];
  const sample = async (index: number) => {
    const request = requests[index] as AiChatRequest;
    if (index > 0 && overHardCap()) {
      asked.notAsked++;
      return;
    }
    try {
      const outcome =
        index === 0
          ? await asks.ask(request, (r) => {
              reads = r;
            })
          : await asks.askPlain(
              reads.length > 0
                ? { ...request, messages: [...request.messages, ...reads, { role: 'user', content: ANSWER_NOW }] }
                : request,
            );
      asked.answers.push({ sample: index, outcome });
    } catch (error) {
      if (signal.aborted || (index === 0 && isContextLengthExceeded(error))) throw error;
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
function renderInOrder(s: ShownFile, order: readonly number[]): string {
  const { header, hunks } = renderFileParts(renderInput(s));
  const byIndex = new Map(hunks.map((h) => [h.index, h.text]));
  return [header, ...order.flatMap((i) => byIndex.get(i) ?? [])].join('\n');
}
