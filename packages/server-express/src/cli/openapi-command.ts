import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type CliCommand, parseCommandArgs } from '@margin/cli';
import { buildOpenApiDocument, serializeOpenApi } from '../openapi/openapi-document.js';
import { API_ROUTES } from '../routes/index.js';

export const openapiCommand: CliCommand = {
  name: 'openapi',
  summary: 'write the OpenAPI document to --out F (default: stdout)',
  failureStatus: 1,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, { out: { type: 'string' } });
    const text = serializeOpenApi(buildOpenApiDocument(API_ROUTES));
    if (values.out) await writeFile(resolve(io.cwd, values.out), text);
    else io.stdout.write(text);
    return 0;
  },
};
