import { z } from 'zod';
import { oneOf, timestamp } from '../kernel/index.js';

const day = z
  .string({ error: 'must be a date' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: 'must be a date (YYYY-MM-DD)',
    },
  );

const window = {
  from: day.optional().meta({ description: 'First UTC day included. Default: the first day of this month.' }),
  to: day
    .optional()
    .meta({ description: 'Last UTC day included. Default: the last day of this month. At most 400 days from `from`.' }),
};

export const CLIENT_USAGE_GROUPINGS = ['day', 'model', 'purpose', 'source', 'repository'] as const;
export const TENANT_SPEND_GROUPINGS = ['client', 'day', 'model'] as const;

export const TokenUsageQuery = z
  .object({
    ...window,
    groupBy: z
      .enum(CLIENT_USAGE_GROUPINGS, { error: oneOf(CLIENT_USAGE_GROUPINGS) })
      .optional()
      .meta({ description: 'Default day.' }),
  })
  .meta({ id: 'TokenUsageQuery' });

export const SpendQuery = z
  .object({
    ...window,
    groupBy: z
      .enum(TENANT_SPEND_GROUPINGS, { error: oneOf(TENANT_SPEND_GROUPINGS) })
      .optional()
      .meta({ description: 'Default client.' }),
  })
  .meta({ id: 'SpendQuery' });

const totals = {
  calls: z.number().int(),
  inputTokens: z.number().int(),
  cachedInputTokens: z.number().int(),
  outputTokens: z.number().int(),
  reasoningTokens: z.number().int(),
  estimatedCostUsd: z.number().meta({ description: 'US$, to a millionth of a dollar.' }),
  costIsApproximate: z.boolean().meta({ description: 'Some calls used a model without a price (counted as 0).' }),
};

export const UsageTotals = z.object(totals).meta({ id: 'UsageTotals' });

export const UsageReport = z
  .object({
    from: z.string().meta({ description: 'First UTC day included.' }),
    to: z.string().meta({ description: 'Last UTC day included.' }),
    groupBy: z.string(),
    totals: UsageTotals,
    rows: z.array(z.object({ key: z.string(), ...totals })),
  })
  .meta({ id: 'UsageReport' });

export type UsageReportBody = z.infer<typeof UsageReport>;

const cap = z
  .number({ error: 'must be a number of US dollars or null' })
  .min(0, 'must be at least 0')
  .max(1_000_000_000, 'must be at most 1000000000')
  .nullable()
  .optional()
  .meta({ description: 'US$; null or absent: no cap.' });

export const BudgetInput = z
  .object({
    monthlySoftCapUsd: cap,
    monthlyHardCapUsd: cap,
    pullRequestSoftCapUsd: cap,
    pullRequestHardCapUsd: cap,
    incrementSoftCapUsd: cap,
    incrementHardCapUsd: cap,
  })
  .superRefine((b, ctx) => {
    for (const scope of ['monthly', 'pullRequest', 'increment'] as const) {
      const soft = b[`${scope}SoftCapUsd`];
      const hard = b[`${scope}HardCapUsd`];
      if (soft != null && hard != null && soft > hard) {
        ctx.addIssue({ code: 'custom', path: [`${scope}SoftCapUsd`], message: `must not exceed ${scope}HardCapUsd` });
      }
    }
  })
  .meta({ id: 'BudgetInput' });

export const BUDGET_STATES = ['ok', 'soft', 'hard'] as const;

export const BudgetView = z
  .object({
    monthlySoftCapUsd: z.number().nullable(),
    monthlyHardCapUsd: z.number().nullable(),
    pullRequestSoftCapUsd: z.number().nullable(),
    pullRequestHardCapUsd: z.number().nullable(),
    incrementSoftCapUsd: z.number().nullable(),
    incrementHardCapUsd: z.number().nullable(),
    monthToDateUsd: z.number().meta({ description: 'Estimated spend since the period started.' }),
    periodStartedAt: timestamp.meta({ description: 'The later of the month’s start (UTC) and the last reset.' }),
    state: z
      .enum(BUDGET_STATES)
      .meta({ description: 'Where the month-to-date spend stands against the monthly caps.' }),
  })
  .meta({ id: 'Budget' });

export type BudgetViewBody = z.infer<typeof BudgetView>;
