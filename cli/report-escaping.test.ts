// report.md is read on GitHub, in editors and by agents: course data in it (titles, notes, block
// reasons, logged facts) is escaped markdown text, one line per field.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CURRICULUM, courseAt, ok, write } from './protocol-fixture.ts';

test('report.md escapes HTML and markdown from titles, notes, reasons and facts, and a newline forges no line', () => {
  const root = courseAt('lessons');
  write(
    root,
    '.codelabgen/curriculum.yaml',
    CURRICULUM.replace(
      'title: Transform streams',
      'title: "Transform\\n## Forged heading <img src=x onerror=alert(1)>"',
    ),
  );
  ok(root, 'register');
  ok(root, 'state', 'block', '2.1', '--reason', 'see [the docs](javascript:alert(1)) *now*');
  const task = ok(root, 'state', 'task', 'start', '1.1').trim();
  ok(root, 'state', 'task', 'fail', task, '--note', '<script>alert(1)</script>\n- **forged** item');
  ok(root, 'state', 'log', 'note', '--lesson', '1.1', '--data', 'text=<b>bold</b> `code` | pipe');
  ok(root, 'report');
  const md = readFileSync(path.join(root, '.codelabgen', 'report.md'), 'utf8');
  assert.doesNotMatch(md, /(^|[^\\])<(script|img|b)\b/m, 'raw HTML in report.md');
  assert.doesNotMatch(md, /[^\\]\]\(javascript:/, 'a live javascript: link in report.md');
  assert.doesNotMatch(md, /^## Forged|^- \*\*forged\*\*/m, 'a newline in course data forged a report line');
  assert.match(md, /^### 2\.1 Transform \\#\\# Forged heading \\<img src=x onerror=alert\(1\)\\>$/m);
  assert.match(
    md,
    /^- \*\*blocked\*\* 2\.1 is blocked at pending: blocked for the user: see \\\[the docs\\\]\(javascript:alert\(1\)\) \\\*now\\\*$/m,
  );
  assert.match(
    md,
    /^- \*\*task-failed\*\* 1\.1: task t1 \(example-designer\) failed: \\<script\\>alert\(1\)\\<\/script\\> - \\\*\\\*forged\\\*\\\* item$/m,
  );
  assert.match(md, /: text=\\<b\\>bold\\<\/b\\> \\`code\\` \\\| pipe$/m);
  assert.match(md, /^\| 2\.1 \| Transform \\#\\# Forged heading \\<img src=x onerror=alert\(1\)\\> \| pending \|/m);
});
