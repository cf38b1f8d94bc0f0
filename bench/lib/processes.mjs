import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/**
 * Starts a server script in its own process (so the load generator does not share its event loop)
 * and waits for it to print `ready <url>`.
 */
export async function startServer(script, { args = [], env = {}, execArgv = [] } = {}) {
  const child = spawn(process.execPath, [...execArgv, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    lines.on('line', (line) => {
      const match = /^ready (.+)$/.exec(line);
      if (match) resolve(match[1]);
    });
  });
  const [address, ...extra] = url.split(' ');
  return {
    url: address,
    /** The server's process id, to read its memory and CPU time from `/proc`. */
    pid: child.pid,
    /** Anything else the server printed after `ready <url>` (ids, tokens). */
    extra,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
