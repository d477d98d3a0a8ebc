// The page script as served: comment lines and indentation left out, the code the same (site/lib/script.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { test } from 'node:test';
import { compactScript } from './script.ts';

test('comment lines, indentation and blank lines go; code, strings with // and line breaks stay', () => {
  assert.equal(
    compactScript("// about\n(function () {\n  // why\n  var u = 'http://x'; // kept\n\n  return u;\n})();\n"),
    "(function () {\nvar u = 'http://x'; // kept\nreturn u;\n})();\n",
  );
});

test('site/client/page.js compacted still parses, holds no comment line and is smaller gzip', () => {
  const source = readFileSync(new URL('../client/page.js', import.meta.url), 'utf8');
  const served = compactScript(source);
  assert.doesNotThrow(() => new Function(served));
  assert.doesNotMatch(served, /^\s*\/\//m);
  assert.doesNotMatch(
    source,
    /`|\/\*/,
    'page.js has a template literal or block comment: compactScript would need a real minifier',
  );
  assert.ok(
    gzipSync(served).length < gzipSync(source).length * 0.9,
    `${gzipSync(served).length} against ${gzipSync(source).length} bytes gzip`,
  );
});
