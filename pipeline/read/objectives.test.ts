// A lesson page's objectives: the curriculum's, or, when the curriculum lists none (a lesson added
// with `new lesson`), the ones written in the lesson's spec.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cli, copyOfCourse } from '../../cli/testing.ts';
import { readCourse } from './course-data.ts';

test("a lesson without objectives in the curriculum shows its spec's", { timeout: 60_000 }, () => {
  const root = copyOfCourse('objectives', (dir) => {
    const made = cli(['init', path.basename(dir), '--title', 'Objectives', '--example'], { cwd: path.dirname(dir) });
    assert.equal(made.code, 0, made.stderr);
  });
  const spec = path.join(root, '.codelabgen', 'lessons', '1.1', 'spec.yaml');
  writeFileSync(
    spec,
    readFileSync(spec, 'utf8').replace(
      /^objectives:\n(?: {2}- .*\n)+/m,
      'objectives:\n  - "Write a greeting"\n  - "Refuse an empty name"\n',
    ),
  );
  assert.deepEqual(readCourse(root).lessons[0]!.objectives, ['Write a greeting', 'Refuse an empty name']);
  // The curriculum's own objectives win.
  const curriculum = path.join(root, '.codelabgen', 'curriculum.yaml');
  writeFileSync(
    curriculum,
    readFileSync(curriculum, 'utf8').replace(
      /^( {8})slug: (.*)$/m,
      '$1slug: $2\n$1objectives: ["From the curriculum"]',
    ),
  );
  assert.deepEqual(readCourse(root).lessons[0]!.objectives, ['From the curriculum']);
});
