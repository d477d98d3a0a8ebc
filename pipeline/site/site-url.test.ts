// `site build --site` takes the site's public http(s) URL only, refused (exit 2, one `error:` line) before Astro
// starts: Astro refused `x` with its schema's JSON under exit 1, and `javascript:alert(1)` failed halfway through.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cli, snapshot, tempDir } from '../../cli/testing.ts';

test('site build --site that is no http(s) URL is refused before anything is built', () => {
  // A course a build takes (its sample lesson, with --drafts), so the refusal is the one of --site.
  const course = path.join(tempDir(), 'course');
  assert.equal(cli(['init', course, '--title', 'Site URL', '--example']).code, 0);
  const out = path.join(tempDir(), 'site');
  const before = snapshot(course);
  for (const site of ['x', 'javascript:alert(1)', 'ftp://example.com/', 'https://exa mple.com/', '/my-course/']) {
    const result = cli(['site', 'build', '--course', course, '--out', out, '--drafts', '--site', site]);
    assert.equal(result.code, 2, `${site}: ${result.stderr}`);
    assert.equal(
      result.stderr,
      `error: --site "${site}": use the site's public http(s) URL, like https://user.github.io/my-course/\n`,
    );
    assert.equal(existsSync(out), false, `${site}: the output folder was made`);
    assert.deepEqual(snapshot(course), before, `${site}: the course changed`);
  }
});
