/**
 * `pnpm --filter @margin/example-sdk-provisioning start <setup.json>`, or `node dist/main.js <setup.json>`.
 *
 * The file describes the setup (see provision.example.json) and can be committed: the secrets come
 * from the environment — MARGIN_PAT, or MARGIN_PASSWORD with `username` in the file; SCM_SECRET;
 * AI_API_KEY. Exit codes: 0 set up (and the review completed, if one was asked for); 1 setup failed;
 * 3 set up, but the review did not complete.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { MarginApiError } from '@margin/sdk-client';
import { formatReport, ProvisioningError, type ProvisionOptions, provision } from './provision.js';

type SetupFile = Omit<ProvisionOptions, 'credentials' | 'log' | 'sourceControl' | 'ai' | 'ca'> & {
  username?: string;
  /** A PEM file to trust for `baseUrl` (e.g. the host's `<data dir>/tls/margin-tls-cert.pem`), beside the setup file. */
  caFile?: string;
  sourceControl: Omit<ProvisionOptions['sourceControl'], 'secret'>;
  ai: Omit<ProvisionOptions['ai'], 'apiKey'>;
};

// The fields this script reads itself; the server checks everything it is sent and names what is wrong.
const REQUIRED = [
  'baseUrl',
  'client.displayName',
  'sourceControl.providerFamily',
  'sourceControl.hostBaseUrl',
  'ai.displayName',
  'ai.providerKind',
  'ai.baseUrl',
  'ai.model.remoteModelId',
  'logicalModelName',
];

try {
  const setup = await readSetup(process.argv[2]);
  const { caFile, ...wanted } = setup;
  const report = await provision({
    ...wanted,
    ca: caFile ? await readFile(resolve(dirname(setupPath(process.argv[2] ?? '')), caFile), 'utf8') : undefined,
    credentials: credentials(setup.username),
    sourceControl: { ...setup.sourceControl, secret: secret('SCM_SECRET') },
    ai: { ...setup.ai, apiKey: secret('AI_API_KEY') },
    log: (line) => console.log(line),
  });
  for (const line of formatReport(report)) console.log(line);
  process.exitCode = report.review && report.review.status !== 'completed' ? 3 : 0;
} catch (error) {
  // Margin's messages and ours never carry credentials, so they can be shown as they are.
  if (error instanceof ProvisioningError || error instanceof MarginApiError) {
    console.error(`Provisioning stopped: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
}

async function readSetup(path: string | undefined): Promise<SetupFile> {
  if (!path) throw new ProvisioningError('setup', 'Name the setup file: main.js <setup.json>.');
  const file = setupPath(path);
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  for (const field of REQUIRED) {
    const value = field.split('.').reduce<unknown>((v, key) => (isObject(v) ? v[key] : undefined), parsed);
    if (typeof value !== 'string' || value === '')
      throw new ProvisioningError('setup', `${path}: ${field} is required.`);
  }
  return parsed as SetupFile;
}

// pnpm runs scripts in the package folder; INIT_CWD is where the command was typed.
function setupPath(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

function credentials(username: string | undefined): ProvisionOptions['credentials'] {
  const pat = process.env.MARGIN_PAT;
  if (pat) return { personalAccessToken: pat };
  if (username) return { username, password: secret('MARGIN_PASSWORD') };
  throw new ProvisioningError('setup', 'Set MARGIN_PAT, or MARGIN_PASSWORD with "username" in the setup file.');
}

function secret(name: string): string {
  const value = process.env[name];
  if (!value) throw new ProvisioningError('setup', `Set ${name}.`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
