// Preloaded into each test file's process by scripts/node-tests.ts (--import): the project's
// TypeScript, stripped of its types once per content for the whole run instead of once per process,
// and Node's compile cache for what those processes load. 177 test files strip about 58 MB of
// TypeScript between them (a file that imports pipeline/index.ts strips 800 KB: about 0.2 s of CPU,
// and V8 compiles it again); docs/testing.md ("Where the cores go"). The folder is
// $CODELABGEN_TEST_CODE_CACHE (node-tests.ts sets it under the repository's .cache/). Only this
// process: the CLI and other programs a test starts keep their own caches (their environment is
// unchanged), and a process a test forks inherits this preload with its execArgv.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = process.env.CODELABGEN_TEST_CODE_CACHE;
if (folder) {
  module.enableCompileCache?.(path.join(folder, 'compile'));
  const stripped = path.join(folder, 'stripped');
  mkdirSync(stripped, { recursive: true });
  // Node's own type stripping (what it runs on a .ts module), warning once that it is experimental:
  // that warning is left out, so that a process's stderr stays what it was.
  const strip = (source) => {
    const emit = process.emitWarning;
    process.emitWarning = () => {};
    try {
      return module.stripTypeScriptTypes(source, { mode: 'strip' });
    } finally {
      process.emitWarning = emit;
    }
  };
  module.registerHooks({
    load(url, context, next) {
      // An ES module in TypeScript (as Node's resolver found it), the project's own.
      if (context.format !== 'module-typescript' || !url.startsWith('file:') || url.includes('/node_modules/'))
        return next(url, context);
      const file = fileURLToPath(url);
      const source = readFileSync(file, 'utf8');
      const cached = path.join(stripped, `${createHash('sha256').update(source).digest('hex').slice(0, 32)}.js`);
      let code;
      try {
        code = readFileSync(cached, 'utf8');
      } catch {
        try {
          code = strip(source);
        } catch {
          return next(url, context); // what Node's loader says about it
        }
        const temp = `${cached}.${process.pid}.tmp`;
        writeFileSync(temp, code);
        renameSync(temp, cached);
      }
      return { format: 'module', source: code, shortCircuit: true };
    },
  });
}
