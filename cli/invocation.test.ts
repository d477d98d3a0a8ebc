// Commands printed for the user work as printed: from a project's own install the CLI is not on
// PATH, so next steps, hints and help say `npx codelabgen ...` (cli/output.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asInvoked, invocationFor } from './output.ts';

test("a project install and npx's cache run as npx codelabgen; a global install and a checkout as codelabgen", () => {
  assert.equal(invocationFor('/home/me/course/node_modules/codelabgen/dist/chunks/init-X.mjs'), 'npx codelabgen');
  assert.equal(invocationFor('/home/me/.npm/_npx/1a2b/node_modules/codelabgen/dist/state.cjs'), 'npx codelabgen');
  assert.equal(invocationFor('C:\\Users\\me\\course\\node_modules\\codelabgen\\dist\\main.mjs'), 'npx codelabgen');
  assert.equal(invocationFor('/usr/local/lib/node_modules/codelabgen/dist/main.mjs'), 'codelabgen');
  assert.equal(invocationFor('/work/codelabgen/dist/main.mjs'), 'codelabgen');
  assert.equal(invocationFor('/work/node_modules/other/codelabgen/dist/main.mjs'), 'codelabgen');
  // A folder install (npm install ../codelabgen) links the checkout: started from the project's .bin.
  assert.equal(
    invocationFor('/work/codelabgen/dist/main.mjs', '/home/me/course/node_modules/.bin/codelabgen'),
    'npx codelabgen',
  );
  assert.equal(
    invocationFor('/usr/local/lib/node_modules/codelabgen/dist/main.mjs', '/usr/local/bin/codelabgen'),
    'codelabgen',
  );
});

test('every command a line names is rewritten once; other words and JSON-free prose stay', () => {
  const npx = (text: string) => asInvoked(text, 'npx codelabgen');
  assert.equal(npx('preview: cd my-course && codelabgen site dev'), 'preview: cd my-course && npx codelabgen site dev');
  assert.equal(
    npx('next: codelabgen state phase recon --course c'),
    'next: npx codelabgen state phase recon --course c',
  );
  assert.equal(
    npx('hint: build it first: codelabgen site build --out x; or `codelabgen verify --all`'),
    'hint: build it first: npx codelabgen site build --out x; or `npx codelabgen verify --all`',
  );
  assert.equal(npx('codelabgen --help'), 'npx codelabgen --help');
  assert.equal(
    npx('already npx codelabgen init and (codelabgen check)'),
    'already npx codelabgen init and (npx codelabgen check)',
  );
  assert.equal(
    npx('# codelabgen course configuration; codelabgen/astro; the codelabgen integration'),
    '# codelabgen course configuration; codelabgen/astro; the codelabgen integration',
  );
  assert.equal(asInvoked('codelabgen site dev', 'codelabgen'), 'codelabgen site dev');
});
