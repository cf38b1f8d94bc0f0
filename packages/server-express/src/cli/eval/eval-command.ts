import type { CliCommand } from '../cli-io.js';

export const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'measure review quality and cost of a model on eval/cases (see --help)',
  failureStatus: 2,
  async run(_argv, io) {
    io.stderr.write('margin eval: not yet\n');
    return 2;
  },
};
