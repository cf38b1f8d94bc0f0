import { MarginError, sealedSecretContext } from '../kernel/index.js';
import type { SystemDeps } from './system-deps.js';

const KEY = 'system.secretsKeyCheck';
const PROBE = 'margin-secrets-key-check';
const CONTEXT = sealedSecretContext('setting.value', KEY);

/**
 * Refuses to run with a secrets key other than the one the database was written with: every
 * stored credential would be unreadable. The first start records a sealed probe value.
 */
export async function verifySecretsKey(deps: SystemDeps): Promise<void> {
  const stored = await deps.storage.settings.get(KEY);
  if (stored === undefined) {
    await deps.storage.settings.put(KEY, deps.secrets.seal(PROBE, CONTEXT), deps.clock.now().toISOString());
    return;
  }
  let opened: string | undefined;
  try {
    opened = deps.secrets.open(String(stored), CONTEXT);
  } catch {
    opened = undefined;
  }
  if (opened !== PROBE) {
    throw new MarginError(
      'service_unavailable',
      'The secrets key does not match the one this database was written with. Restore the original MARGIN_SECRETS_KEY (or the data dir’s secrets.key).',
    );
  }
}
