/**
 * Test support: a package's executable bundled with esbuild from the current sources, so a test can
 * run it as a separate process without a workspace build. Every package dependency stays external,
 * imported by the absolute path esbuild resolved, so the bundle runs from anywhere.
 */
import { mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const bundles = new Map<string, Promise<string>>();

/** Bundles `entry` (a TypeScript file) to `outfile` once per test process and answers `outfile`. */
export function bundleFromSources(entry: string, outfile: string): Promise<string> {
  let bundled = bundles.get(outfile);
  if (!bundled) {
    bundled = (async () => {
      // Every test process bundles the same sources: each writes its own file and renames it over the
      // one bundle, so readers never see a half-written file and runs leave one file behind, not one each.
      const written = `${outfile}.${process.pid}.tmp`;
      await mkdir(dirname(outfile), { recursive: true });
      await build({
        entryPoints: [entry],
        outfile: written,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        conditions: ['@margin/source'],
        logLevel: 'error',
        plugins: [externalByAbsolutePath],
      });
      await rename(written, outfile);
      return outfile;
    })();
    bundles.set(outfile, bundled);
  }
  return bundled;
}

/** Our own packages are bundled from source; everything else is imported where it is installed. */
const externalByAbsolutePath: Plugin = {
  name: 'external-by-absolute-path',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@margin/') || args.pluginData === 'resolving') return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'resolving',
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: pathToFileURL(resolved.path).href, external: true };
    });
  },
};
