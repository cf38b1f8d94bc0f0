import type { CliCommand } from '@margin/cli';
import { loadConfig } from '../config.js';
import { startMarginHost } from '../host/start-host.js';

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'start the gateway, API, webhook receiver and workers (default)',
  failureStatus: 1,
  async run() {
    const host = await startMarginHost({ config: loadConfig() });
    return new Promise((resolve) => {
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) {
          host.logger.warn({ signal }, 'second signal: exiting at once');
          resolve(1);
          return;
        }
        stopping = true;
        host.logger.info({ signal }, 'shutting down');
        host.close().then(
          () => resolve(0),
          () => resolve(1),
        );
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
  },
};
