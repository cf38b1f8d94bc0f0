export const EDITIONS = ['Community', 'Commercial'] as const;
export type Edition = (typeof EDITIONS)[number];

export const CAPABILITY_KEYS = [
  'sso-authentication',
  'parallel-review-execution',
  'multiple-scm-providers',
  'crawl-configs',
  'budgeting',
] as const;
export type CapabilityKey = (typeof CAPABILITY_KEYS)[number];

export const OVERRIDE_STATES = ['default', 'enabled', 'disabled'] as const;
export type OverrideState = (typeof OVERRIDE_STATES)[number];

/** What each capability unlocks, in the words its refusal uses. */
export const CAPABILITY_FEATURES: Record<CapabilityKey, string> = {
  'sso-authentication': 'Single sign-on',
  'parallel-review-execution': 'Running more than one review at a time',
  'multiple-scm-providers': 'More than one source-control connection per client',
  'crawl-configs': 'Scheduled crawling of pull requests',
  budgeting: 'Spend caps and the budget and spend views',
};

/** Every capability is a Commercial one; an override can only switch it off there. */
export const REQUIRES_COMMERCIAL: Record<CapabilityKey, boolean> = {
  'sso-authentication': true,
  'parallel-review-execution': true,
  'multiple-scm-providers': true,
  'crawl-configs': true,
  budgeting: true,
};

export function isCapabilityKey(value: string): value is CapabilityKey {
  return (CAPABILITY_KEYS as readonly string[]).includes(value);
}
