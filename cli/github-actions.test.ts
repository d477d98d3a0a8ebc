// verify under GitHub Actions: the workflow-command escapes (a table of hostile texts), and through
// the built CLI a failing lesson whose test name and output try to issue workflow commands: one
// `::error` annotation on the failing test's line, its output between stop-commands markers,
// and the job summary in $GITHUB_STEP_SUMMARY.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { errorAnnotation, escapeData, escapeProperty, markdownCell } from './github-actions.ts';
import { cli, copyOfCourse, scratchDir } from './testing.ts';

describe('workflow-command escapes', () => {
  const cases: Array<[string, string, string]> = [
    ['plain', 'plain', 'plain'],
    ['50% done', '50%25 done', '50%25 done'],
    ['line\nnext', 'line%0Anext', 'line%0Anext'],
    ['cr\rlf\r\n', 'cr%0Dlf%0D%0A', 'cr%0Dlf%0D%0A'],
    ['a::warning::b', 'a::warning::b', 'a%3A%3Awarning%3A%3Ab'],
    ['x,line=9', 'x,line=9', 'x%2Cline=9'],
    ['%0A::error::', '%250A::error::', '%250A%3A%3Aerror%3A%3A'],
  ];
  for (const [text, data, property] of cases)
    test(`escapes ${JSON.stringify(text)}`, () => {
      assert.equal(escapeData(text), data);
      assert.equal(escapeProperty(text), property);
    });

  test('an annotation is one line whose head a course text cannot end', () => {
    const line = errorAnnotation(
      { file: '/repo/les,son/t::x.js', line: 4, title: 'lesson 1.1 failed', message: 'boom\n::add-mask::x' },
      { GITHUB_WORKSPACE: '/repo' },
      '/elsewhere',
    );
    assert.equal(line, '::error file=les%2Cson/t%3A%3Ax.js,line=4,title=lesson 1.1 failed::boom%0A::add-mask::x');
    assert.equal(markdownCell('a | b <img>\nc'), 'a \\| b &lt;img&gt; c');
  });
});

const work = scratchDir('codelabgen-gha-');

describe('verify under GITHUB_ACTIONS=true', { timeout: 120_000 }, () => {
  const root = copyOfCourse('gha-example', (dir) => {
    const made = cli(['init', path.basename(dir), '--title', 'Hand made', '--example'], { cwd: path.dirname(dir) });
    assert.equal(made.code, 0, made.stderr);
  });
  const lessonDir = path.join(root, '1-first-steps', readdirSync(path.join(root, '1-first-steps'))[0]!);
  const testFile = path.join(lessonDir, 'test', 'greet.test.mjs');
  writeFileSync(
    testFile,
    [
      "import assert from 'node:assert/strict';",
      "import { test } from 'node:test';",
      '',
      '',
      "test('100% wrong %0A::error::injected', () => {",
      "  assert.equal('Hello', 'Bye');",
      '});',
      '',
    ].join('\n'),
  );
  // The lesson's test command prints lines that are workflow commands after node --test, where
  // verify's tail of the output shows them.
  writeFileSync(
    path.join(lessonDir, 'run-tests.mjs'),
    [
      "import { spawnSync } from 'node:child_process';",
      "const run = spawnSync(process.execPath, ['--test', 'test/greet.test.mjs'], { stdio: 'inherit' });",
      "console.log('::warning::a lesson printed this');",
      "console.log('  ::add-mask::indented');",
      'process.exit(run.status ?? 1);',
      '',
    ].join('\n'),
  );
  const spec = path.join(root, '.codelabgen', 'lessons', '1.1', 'spec.yaml');
  writeFileSync(spec, `${readFileSync(spec, 'utf8')}test_command: ["node", "run-tests.mjs"]\n`);
  const summary = path.join(work, 'summary.md');
  const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: root };

  test('verify <id>: one annotation on the failing line, the output fenced off, a job summary', () => {
    writeFileSync(summary, '');
    const result = cli(['verify', '1.1'], { cwd: root, env });
    assert.equal(result.code, 1, result.stderr);
    const commands = result.stdout.split('\n').filter((line) => line.trim().startsWith('::'));
    const token = /^::stop-commands::(codelabgen-[0-9a-f]{32})$/.exec(commands[0] ?? '')?.[1];
    assert.ok(token, `no stop-commands first: ${commands.join('\n')}`);
    const end = commands.indexOf(`::${token}::`);
    assert.ok(end > 0, 'commands are never turned back on');
    // Between the markers only the lesson's own lines; after them, exactly one command of codelabgen's.
    assert.deepEqual(
      commands
        .slice(1, end)
        .map((line) => line.trim())
        .sort(),
      ['::add-mask::indented', '::warning::a lesson printed this'],
    );
    const relative = path.relative(root, testFile);
    assert.equal(commands.length, end + 2, commands.join('\n'));
    assert.match(
      commands[end + 1]!,
      new RegExp(
        `^::error file=${relative.replace(/\./g, '\\.')},line=5,title=lesson 1\\.1 failed::100%25 wrong %250A::error::injected`,
      ),
    );
    const written = readFileSync(summary, 'utf8');
    assert.match(written, /^### codelabgen verify 1\.1$/m);
    assert.match(written, /^\| 1\.1 \| ❌ failed \| 0\/1 \| 100% wrong %0A::error::injected/m);
  });

  test('verify --all: the annotation, the summary and the lessons the site leaves out', () => {
    writeFileSync(summary, '');
    const result = cli(['verify', '--all'], { cwd: root, env });
    assert.equal(result.code, 1, result.stderr);
    const commands = result.stdout.split('\n').filter((line) => line.trim().startsWith('::'));
    assert.equal(commands.length, 1, commands.join('\n'));
    assert.match(
      commands[0]!,
      /^::error file=1-first-steps\/[^,]+\/test\/greet\.test\.mjs,line=5,title=lesson 1\.1 failed::/,
    );
    const written = readFileSync(summary, 'utf8');
    assert.match(written, /^1 lessons: 0 passed, 1 failed, 0 could not run$/m);
    assert.match(written, /^Left out of the site \(site\.publish: verified .*\): 1\.1$/m);
  });

  test('outside GitHub Actions: no workflow command and no summary', () => {
    writeFileSync(summary, '');
    const result = cli(['verify', '--all'], {
      cwd: root,
      env: { GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: undefined },
    });
    assert.equal(result.code, 1);
    assert.doesNotMatch(result.stdout, /^::/m);
    assert.equal(readFileSync(summary, 'utf8'), '');
  });
});
