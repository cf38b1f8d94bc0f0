import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Who holds a lease: the machine and process, for operators reading `lease_owner`, plus a random
 * part, so several runtimes in one process (tests, embedding) never share leases.
 */
export function leaseOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}
