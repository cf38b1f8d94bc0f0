import { MarginError } from '../kernel/index.js';
import type { IdentityDeps } from './identity-deps.js';
import { hashPassword } from './passwords.js';
import { forgetUser } from './user-state-cache.js';

export interface BootstrapAdminInput {
  username: string;
  /** When absent, a random password is generated and returned once. */
  password?: string | undefined;
}

export interface BootstrapAdminResult {
  /** `exists`: an active platform admin was already there and nothing changed. */
  status: 'created' | 'restored' | 'exists';
  username: string;
  generatedPassword?: string;
}

/**
 * Seeds the platform administrator while no active one exists. An existing account with the same
 * name is re-activated and promoted, so an operator locked out of every admin account can recover.
 */
export async function ensureBootstrapAdmin(
  deps: IdentityDeps,
  input: BootstrapAdminInput,
): Promise<BootstrapAdminResult> {
  const username = input.username.trim();
  if (!username) throw MarginError.validation('The bootstrap admin username must not be empty.');
  if ((await deps.storage.users.countActive('platformAdmin')) > 0) return { status: 'exists', username };

  const generatedPassword = input.password ? undefined : deps.ids.randomHex(12);
  const passwordHash = await hashPassword(input.password ?? (generatedPassword as string));
  const now = deps.clock.now().toISOString();

  try {
    const status = await deps.storage.transaction(async (tx) => {
      if ((await tx.users.countActive('platformAdmin')) > 0) return 'exists' as const;
      const existing = await tx.users.findByUsername(username);
      const reset = {
        passwordHash,
        globalRole: 'platformAdmin',
        isActive: true,
        updatedAt: now,
      } as const;
      // Recovering the installation lifts every lock on the name.
      await tx.signInFailures.clear(username.toLowerCase());
      if (existing) {
        await tx.users.update(existing.id, reset);
        return 'restored' as const;
      }
      await tx.users.insert({
        id: deps.ids.uuid(),
        username,
        displayName: username,
        email: null,
        createdAt: now,
        ...reset,
      });
      return 'created' as const;
    });
    if (status === 'exists') return { status, username };
    const seeded = await deps.storage.users.findByUsername(username);
    if (seeded) forgetUser(deps, seeded.id);
    return generatedPassword ? { status, username, generatedPassword } : { status, username };
  } catch (error) {
    // Another host seeded the same admin at the same moment.
    if (MarginError.isInstance(error) && error.code === 'conflict') return { status: 'exists', username };
    throw error;
  }
}
