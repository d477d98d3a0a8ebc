// Code highlighting must not depend on the machine's speed (pipeline/site/expressive-code.ts):
// shiki's default 500 ms limit per line left lines plain on a loaded CI runner. Date.now is made
// to jump a second per call, so every line would run out of time under that limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRenderer, type RehypeExpressiveCodeOptions } from 'astro-expressive-code';
import { toHtml } from 'astro-expressive-code/hast';
import { expressiveCodeOptions, MAX_TOKENIZED_LINE } from './expressive-code.ts';

const CODE = 'export const value = 1; // a comment\nconst text = "s";';

async function renderOnSlowClock(code: string): Promise<string> {
  const { ec } = await createRenderer(expressiveCodeOptions as RehypeExpressiveCodeOptions);
  const now = Date.now;
  let clock = now();
  Date.now = () => (clock += 1000);
  try {
    return toHtml((await ec.render({ code, language: 'ts' })).renderedGroupAst);
  } finally {
    Date.now = now;
  }
}

test('every line is tokenized however slow the machine is', async () => {
  const html = await renderOnSlowClock(CODE);
  assert.match(html, /<span class="a5 b5">export<\/span> <span class="a5 b5">const<\/span>/);
  assert.match(html, /<span class="a1 b1">\/\/ a comment<\/span>/);
  assert.match(html, /<span class="[a-z0-9 ]+">"s"<\/span>/, 'the second line is plain');
});

test('a line longer than the cap stays plain on every machine', async () => {
  const long = `const x = [${'1, '.repeat(MAX_TOKENIZED_LINE / 3)}];`;
  const html = await renderOnSlowClock(`${long}\nconst y = 2;`);
  assert.match(html, /<div class="code">const x = \[1, 1, /);
  assert.match(html, /<span class="a5 b5">const<\/span> <span class="a2 b2">y<\/span>/);
});
