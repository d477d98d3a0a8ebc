// The site's imports of content-schemas/index.ts and pipeline/read/index.ts are served by Vite as
// re-exports of the modules the integration loaded (pipeline/site/integration.ts), so Vite never
// compiles the pipeline and the pages and the integration share one instance of it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as contentSchemas from '../../content-schemas/index.ts';
import * as pipelineRead from '../read/index.ts';
import { packageRoot } from './package-root.ts';
import { sharedPipelinePlugin } from './integration.ts';

const plugin = sharedPipelinePlugin();

for (const [file, module] of [
  [path.join(packageRoot(), 'pipeline', 'read', 'index.ts'), pipelineRead],
  [path.join(packageRoot(), 'content-schemas', 'index.ts'), contentSchemas],
] as const) {
  test(`${path.relative(packageRoot(), file)} is served as re-exports of the loaded module, every export the same object`, async () => {
    assert.ok(existsSync(file), `${file} is the module site/ imports`);
    const code = plugin.load(file);
    assert.equal(typeof code, 'string');
    const served = (await import(`data:text/javascript,${encodeURIComponent(code!)}`)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(served).sort(), Object.keys(module).sort());
    for (const [name, value] of Object.entries(module)) assert.equal(served[name], value, `${name} is another object`);
  });
}

test('any other module is left to Vite', () => {
  for (const id of [
    path.join(packageRoot(), 'pipeline', 'site', 'markdown.ts'),
    path.join(packageRoot(), 'site', 'lib', 'lessons.ts'),
    'virtual:codelabgen/options',
  ])
    assert.equal(plugin.load(id), null, id);
});
