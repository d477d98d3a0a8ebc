// mermaid and playwright are optional peer dependencies: a course with diagrams to draw is refused
// (exit 2) with the command that installs them; without diagrams to draw nothing is asked for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefusalError } from '../course/errors.ts';
import { missingDiagramPackages, requireDiagramPackages } from './diagrams.ts';
import type { DiagramRef } from './segments.ts';

/** Any path: these checks never start the browser. */
const SOME_CHROMIUM = '/path/to/chromium';

const none = (id: string): string => {
  throw new Error(`Cannot find module '${id}'`);
};
const only = (name: string) => (id: string) => (id.startsWith(name) ? `/x/${id}` : none(id));
const diagram = (lesson: string, label: string) =>
  ({ lesson, label, hash: `${lesson}${label}`, source: 'flowchart LR\n a-->b', title: 't' }) as unknown as DiagramRef;

test('playwright is wanted only when a Chromium would draw; mermaid always', () => {
  assert.deepEqual(missingDiagramPackages(SOME_CHROMIUM, none), ['mermaid', 'playwright']);
  assert.deepEqual(missingDiagramPackages(null, none), ['mermaid']);
  assert.deepEqual(missingDiagramPackages(SOME_CHROMIUM, only('mermaid')), ['playwright']);
  assert.deepEqual(missingDiagramPackages(null, only('mermaid')), []);
  assert.deepEqual(missingDiagramPackages(SOME_CHROMIUM), [], 'this repository installs both (devDependencies)');
});

test('diagrams to draw without the packages are refused naming the first and the install command', () => {
  assert.throws(
    () => requireDiagramPackages([diagram('1.2', 'docs/notes.md:7'), diagram('2.1', 'x')], SOME_CHROMIUM, none),
    (error: unknown) => {
      assert.ok(error instanceof RefusalError);
      assert.equal(
        error.message,
        'the course has 2 mermaid diagrams (the first: lesson 1.2 docs/notes.md:7) to draw, but mermaid and ' +
          'playwright are not installed: diagrams need the optional packages mermaid and playwright',
      );
      assert.deepEqual(error.hints, ['install them beside codelabgen: npm install --save-dev mermaid playwright']);
      return true;
    },
  );
  requireDiagramPackages([], SOME_CHROMIUM, none); // nothing to draw: nothing needed
  requireDiagramPackages([diagram('1.1', 'x')], null, only('mermaid'));
});
