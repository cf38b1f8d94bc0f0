/**
 * Test support: validates SARIF against the SARIF 2.1.0 JSON schema `sarif-2.1.0-rtm.5.json`, as
 * shipped as data by Microsoft's `@microsoft/jest-sarif` (pinned as a devDependency; only its
 * schema file is used). The OASIS file `sarif-schema-2.1.0.json` would be the one to prefer, but no
 * well-kept npm package ships it: `@microsoft/sarif-multitool-linux` carries a `sarif-2.1.0.json`
 * rewritten for JSON Schema 2020-12 inside a 43 MB Linux-only binary package, not worth a
 * devDependency. The schema is draft-04, so ajv's draft-04 class; one of its patterns is not valid
 * as a unicode regular expression, so `unicodeRegExp: false`.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// Both are CommonJS with a `default` export; required so the types and the values agree under NodeNext.
const { default: Ajv } = require('ajv-draft-04') as typeof import('ajv-draft-04');
const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as Record<string, unknown>;

let validate: ReturnType<InstanceType<typeof Ajv>['compile']> | undefined;

/** The schema's complaints about `log`, empty when it is valid SARIF 2.1.0. */
export function sarifProblems(log: unknown): string[] {
  if (!validate) {
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    validate = ajv.compile(schema);
  }
  return validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
