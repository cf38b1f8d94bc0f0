import type { Emitter } from 'mitt';
import mittImport from 'mitt';

// mitt's typings are CommonJS-shaped under NodeNext while its ESM build has a real default export;
// take whichever the runtime hands us.
const mitt = ((mittImport as unknown as { default?: unknown }).default ?? mittImport) as typeof import('mitt').default;

/**
 * What Margin announces, so an embedding host can react without polling. Payloads are small and
 * carry ids; read the full records through the use cases.
 */
export type MarginEvents = {
  'user.created': { userId: string; username: string };
  'client.updated': { clientId: string; isActive: boolean };
  'tenant.updated': { tenantId: string; isActive: boolean };
  'job.queued': { jobId: string; clientId: string; trigger: string };
  'job.started': { jobId: string; clientId: string; attempt: number };
  /** A job ended without failing: reviewed, or cancelled/superseded at resolve (nothing reviewed). */
  /** A run that ended without failing; `budgetHeld`/`budgetExceeded` when a spend cap held or stopped it. */
  'job.completed': {
    jobId: string;
    clientId: string;
    status: 'completed' | 'cancelled' | 'superseded' | 'budgetHeld' | 'budgetExceeded';
  };
  'job.failed': { jobId: string; clientId: string; reason: string };
  'job.stopped': { jobId: string; clientId: string };
  'finding.published': { jobId: string; findingId: string; providerThreadId: string };
  'webhook.delivery': { configurationId: string; deliveryId: string; outcome: string };
  /** Index jobs were queued for a code-knowledge source's branches. */
  'knowledge.refreshQueued': { sourceId: string; clientId: string; branches: string[] };
  /** A comment mentioned Margin: the conversation waits for the worker. */
  'conversation.queued': { conversationId: string; clientId: string };
};

export type MarginEventName = keyof MarginEvents;
export type EventBus = Emitter<MarginEvents>;

export function createEventBus(): EventBus {
  return mitt<MarginEvents>();
}
