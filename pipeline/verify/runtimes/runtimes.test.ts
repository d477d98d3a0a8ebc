// The runtime registry (content-schemas/runtimes.ts) and what reads it agree: one module per
// runtime, a template folder for each runtime that names one, and the lists derived from it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  DEFAULT_RUNTIME,
  RUNTIME_REGISTRY,
  RUNTIMES,
  RuntimeSchema,
  TEMPLATE_RUNTIMES,
  runtimeList,
  templateRuntimeList,
} from '../../../content-schemas/index.ts';
import { REPO_ROOT } from '../../../cli/testing.ts';
import { DEFAULT_CONFIG_YAML } from '../../store/create.ts';
import { RUNTIME_COMMANDS } from './index.ts';

test('each runtime of the registry has its module, and no module is for a runtime the registry lacks', () => {
  assert.deepEqual(Object.keys(RUNTIME_COMMANDS).sort(), [...RUNTIMES].sort());
  assert.ok(Object.values(RUNTIME_COMMANDS).every((resolve) => typeof resolve === 'function'));
});

test('each template a runtime names is a folder of templates/ with a lesson and a spec', () => {
  for (const entry of RUNTIME_REGISTRY) {
    if (entry.template === null) continue;
    const folder = path.join(REPO_ROOT, 'templates', entry.template);
    assert.ok(existsSync(path.join(folder, 'spec.yaml')), `${entry.name}: ${folder}/spec.yaml`);
    assert.ok(existsSync(path.join(folder, 'lesson')), `${entry.name}: ${folder}/lesson/`);
  }
  assert.deepEqual(
    TEMPLATE_RUNTIMES,
    RUNTIME_REGISTRY.filter((entry) => entry.template !== null).map((entry) => entry.name),
  );
});

test('the schema enum, the default config and the prose lists are the registry, in its order', () => {
  assert.deepEqual(RuntimeSchema.options, RUNTIMES);
  assert.match(DEFAULT_CONFIG_YAML, new RegExp(`^runtime: ${DEFAULT_RUNTIME} +# ${RUNTIMES.join(' \\| ')}$`, 'm'));
  assert.equal(runtimeList(), 'node, python, python-uv or custom');
  assert.equal(templateRuntimeList('and'), 'node and python');
});
