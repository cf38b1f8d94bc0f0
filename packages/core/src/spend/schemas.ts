import { z } from 'zod';
import { oneOf } from '../kernel/index.js';

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
