/** The built-in tenant every installation has; Community installations reach only its clients. */
export const SYSTEM_TENANT_ID = '11111111-1111-1111-1111-111111111111';
