import { MarginError } from '../kernel/index.js';

// argon2id (the library default) with OWASP's baseline cost: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;

/**
 * `@node-rs/argon2` is an optional peer dependency: a prebuilt native addon that only hosts signing
 * users in need, so installs that only review (`@margin/cli`) carry none. Loaded the first time a
 * password is hashed or verified; when it is missing, every use says which package to install.
 */
function loadArgon2(): Promise<typeof import('@node-rs/argon2')> {
  argon2 ??= import('@node-rs/argon2').catch((error: unknown) => {
    throw MarginError.internal(
      'Passwords need the package @node-rs/argon2 (an optional peer dependency of @margin/core), which could not be loaded: install it beside @margin/core (npm install @node-rs/argon2).',
      error,
    );
  });
  return argon2;
}

export async function hashPassword(plaintext: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(plaintext, OPTIONS);
}

export async function verifyPassword(passwordHash: string, plaintext: string): Promise<boolean> {
  const { verify } = await loadArgon2(); // outside the catch: a missing library is no wrong password
  try {
    return await verify(passwordHash, plaintext);
  } catch {
    return false; // a malformed stored hash never authenticates
  }
}
