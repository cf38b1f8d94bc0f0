export { BUDGET_CAPS, type BudgetCap, type ClientBudgetRecord, type ClientBudgetsRepository } from './budget-record.js';
export { type BudgetAdmission, budgetAdmission } from './budgets.js';
export type { InFlightSpendRecord, InFlightSpendRepository } from './in-flight-spend.js';
export { MAX_REPORT_DAYS } from './reports.js';
export {
  BUDGET_STATES,
  BudgetInput,
  BudgetView,
  type BudgetViewBody,
  CLIENT_USAGE_GROUPINGS,
  SpendQuery,
  TENANT_SPEND_GROUPINGS,
  TokenUsageQuery,
  UsageReport,
  type UsageReportBody,
  UsageTotals,
} from './schemas.js';
export type { SpendDeps, SpendRepositories } from './spend-deps.js';
export {
  addUsage,
  MICROS_PER_USD,
  noUsage,
  toMicroUsd,
  USAGE_GROUPINGS,
  USAGE_SOURCES,
  type UsageEventRecord,
  type UsageEventsRepository,
  type UsageGrouping,
  type UsageSource,
  type UsageSummaryQuery,
  type UsageSums,
  usageOfEvent,
} from './spend-records.js';
export { createSpendUseCases, type SpendUseCases } from './use-cases.js';
