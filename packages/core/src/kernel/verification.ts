/** Where a connection stands after its last verification; source-control and AI connections share it. */
export const VERIFICATION_STATUSES = ['neverVerified', 'verified', 'failed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
