import { z } from 'zod';
import { CAPABILITY_KEYS, EDITIONS, OVERRIDE_STATES } from './capabilities.js';

const MAX_CAPABILITY_OVERRIDES = 50;

/** Edition names are accepted in any case and answered as `Community` / `Commercial`. */
const Edition = z
  .string()
  .max(50, 'must be at most 50 characters')
  .transform((v, ctx) => {
    const match = EDITIONS.find((e) => e.toLowerCase() === v.trim().toLowerCase());
    if (!match) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${EDITIONS.join(', ')}` });
      return z.NEVER;
    }
    return match;
  })
  .meta({ description: 'Community or Commercial (any case).' });

export const PatchLicensingInput = z
  .object({
    edition: Edition,
    capabilityOverrides: z
      .array(
        z
          .object({
            capability: z.string().max(100, 'must be at most 100 characters').optional(),
            key: z
              .string()
              .max(100, 'must be at most 100 characters')
              .optional()
              .meta({ description: 'Alias of `capability`.' }),
            overrideState: z.enum(OVERRIDE_STATES),
          })
          .refine((o) => o.capability ?? o.key, 'capability is required'),
      )
      // A few per capability is plenty; a request never needs more.
      .max(MAX_CAPABILITY_OVERRIDES, `must have at most ${MAX_CAPABILITY_OVERRIDES} entries`)
      .optional(),
  })
  .meta({ id: 'PatchLicensingInput' });

export const CapabilityStateView = z
  .object({
    capability: z.enum(CAPABILITY_KEYS),
    requiresCommercial: z.boolean(),
    overrideState: z.enum(OVERRIDE_STATES),
    isAvailable: z.boolean(),
    message: z.string(),
  })
  .meta({ id: 'CapabilityState' });

export const LicensingView = z
  .object({
    edition: z.enum(EDITIONS),
    activatedAt: z.string().nullable(),
    capabilities: z.array(CapabilityStateView),
  })
  .meta({ id: 'Licensing' });

export type LicensingViewBody = z.infer<typeof LicensingView>;
