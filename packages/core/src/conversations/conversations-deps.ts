import type { AiRepositories } from '../ai/index.js';
import type { Clock, EventBus, Ids, SecretBox, StorageSlice } from '../kernel/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { ProviderRegistry } from '../provider-registry/index.js';
import type { JobStatusCache, ReviewingRepositories, ReviewRequest } from '../reviewing/index.js';
import type { OpenedScmScope, ScmRepositories } from '../scm/index.js';
import type { PullRequestSnapshot } from '../scm-provider/index.js';
import type { SpendRepositories } from '../spend/index.js';
import type { Authorizer, TenancyRepositories } from '../tenancy/index.js';
import type { ConversationRecord, ConversationsRepository } from './conversation-record.js';

/** Conversations' part of the storage port. */
export interface ConversationsRepositories {
  conversations: ConversationsRepository;
}

/**
 * The review a `review` command asks for, shaped by the configuration that found the comment.
 * Triggers keeps the configurations and implements it; `undefined` when the configuration is gone.
 */
export interface ConversationOrigins {
  reviewRequestFor(
    conversation: ConversationRecord,
    opened: OpenedScmScope,
    pullRequest: PullRequestSnapshot,
  ): Promise<ReviewRequest | undefined>;
}

/** What listing and handling conversations need. */
export interface ConversationsDeps {
  storage: StorageSlice<
    ConversationsRepositories &
      ReviewingRepositories &
      ScmRepositories &
      AiRepositories &
      SpendRepositories &
      TenancyRepositories &
      LicensingRepositories
  >;
  secrets: SecretBox;
  clock: Clock;
  ids: Ids;
  events: EventBus;
  providers: ProviderRegistry;
  authz: Authorizer;
  jobStatusCache: JobStatusCache;
  origins: ConversationOrigins;
}
