import type { Actor } from '../kernel/index.js';
import { getBudget, putBudget, resetBudget } from './budgets.js';
import { clientTokenUsage, knowledgeTokenUsage, pruneUsage, tenantSpend } from './reports.js';
import type { BudgetViewBody, UsageReportBody } from './schemas.js';
import type { SpendDeps } from './spend-deps.js';

/** What model calls used and cost: a client's token usage, a tenant's spend. */
export interface SpendUseCases {
  clientTokenUsage(actor: Actor, clientId: string, query: unknown): Promise<UsageReportBody>;
  /** The client's usage for code knowledge (indexing and knowledge queries) only. */
  knowledgeTokenUsage(actor: Actor, clientId: string, query: unknown): Promise<UsageReportBody>;
  tenantSpend(actor: Actor, tenantId: string, query: unknown): Promise<UsageReportBody>;
  getBudget(actor: Actor, clientId: string): Promise<BudgetViewBody>;
  putBudget(actor: Actor, clientId: string, input: unknown): Promise<BudgetViewBody>;
  resetBudget(actor: Actor, clientId: string): Promise<BudgetViewBody>;
  /** For hosts: deletes usage older than `retentionDays` (whole days); answers how many events went. */
  pruneUsage(retentionDays: number): Promise<number>;
}

export function createSpendUseCases(deps: SpendDeps): SpendUseCases {
  return {
    clientTokenUsage: (actor, clientId, query) => clientTokenUsage(deps, actor, clientId, query),
    knowledgeTokenUsage: (actor, clientId, query) => knowledgeTokenUsage(deps, actor, clientId, query),
    tenantSpend: (actor, tenantId, query) => tenantSpend(deps, actor, tenantId, query),
    getBudget: (actor, clientId) => getBudget(deps, actor, clientId),
    putBudget: (actor, clientId, input) => putBudget(deps, actor, clientId, input),
    resetBudget: (actor, clientId) => resetBudget(deps, actor, clientId),
    pruneUsage: (retentionDays) => pruneUsage(deps, retentionDays),
  };
}
