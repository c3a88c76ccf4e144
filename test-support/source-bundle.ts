import { buildSync } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * An entry point of the current sources (src/index.ts, src/cli/index.ts) bundled by esbuild into one
 * file, for a test that starts it as a process: a start then costs what the built program's does
 * (about 0.4 s of CPU for the CLI), where tsx's loader compiles and resolves every module again on each
 * start (about 1.8 s for the CLI, 3 s for the action). ESM needs `require` made for the CommonJS
 * dependencies it inlines. The file is named by its content, so parallel test files share it and the
 * folder holds one file per version of the sources.
 */
export function bundleSources(entryPoint: string): string {
  const bundled = bundledInThisFile.get(entryPoint) ?? writeBundle(entryPoint);
  bundledInThisFile.set(entryPoint, bundled);
  return bundled;
}

/** Jest gives each test file its own module registry: one bundle per entry point and test file. */
const bundledInThisFile = new Map<string, string>();

function writeBundle(entryPoint: string): string {
  const built = buildSync({
    entryPoints: [path.resolve(entryPoint)],
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);"
    }
  });
  const code = built.outputFiles[0]!.contents;
  const folder = path.join(tmpdir(), 'compact-agent-source-bundles');
  mkdirSync(folder, { recursive: true });
  // src/cli/index.ts → src-cli-index-<hash>.mjs: the entry point, then the version of its sources.
  const entryName = path
    .relative(process.cwd(), path.resolve(entryPoint))
    .replace(/\.ts$/, '')
    .replace(/[\\/]/g, '-');
  const name = `${entryName}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const file = path.join(folder, name);
  // Written whole under a temporary name, then renamed: a parallel test file never runs half a file.
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  return file;
}
