import { hash, verify } from '@node-rs/argon2';

// argon2id (the library default) with OWASP's baseline cost: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(plaintext: string): Promise<string> {
  return hash(plaintext, OPTIONS);
}

export async function verifyPassword(passwordHash: string, plaintext: string): Promise<boolean> {
  try {
    return await verify(passwordHash, plaintext);
  } catch {
    return false; // a malformed stored hash never authenticates
  }
}
