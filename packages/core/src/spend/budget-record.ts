/** A client's spend caps (US$; `null`: no cap) and the start of its accounting period. */
export interface ClientBudgetRecord {
  clientId: string;
  monthlySoftCapUsd: number | null;
  monthlyHardCapUsd: number | null;
  pullRequestSoftCapUsd: number | null;
  pullRequestHardCapUsd: number | null;
  incrementSoftCapUsd: number | null;
  incrementHardCapUsd: number | null;
  /** Set by a reset; the month-to-date spend counts from the later of this and the month's start. */
  periodStartedAt: string | null;
  updatedAt: string;
}

export const BUDGET_CAPS = [
  'monthlySoftCapUsd',
  'monthlyHardCapUsd',
  'pullRequestSoftCapUsd',
  'pullRequestHardCapUsd',
  'incrementSoftCapUsd',
  'incrementHardCapUsd',
] as const;
export type BudgetCap = (typeof BUDGET_CAPS)[number];

export interface ClientBudgetsRepository {
  find(clientId: string): Promise<ClientBudgetRecord | undefined>;
  /** Inserts or replaces the client's budget. */
  save(budget: ClientBudgetRecord): Promise<void>;
}
