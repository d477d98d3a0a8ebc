// The fast path for human authors, through the built CLI: `init --example` gives a lesson that
// verify and check pass; `new module` / `new lesson` add registered lessons from the runtime's
// template, and every refusal exits 2 with one error: line and leaves every file as it was.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { load } from 'js-yaml';
import { refused } from './protocol-fixture.ts';
import { cli, copyOfCourse, exists, readEvents, readState, scratchDir } from './testing.ts';

const work = scratchDir('codelabgen-authoring-');

function ok(root: string, ...args: string[]): string {
  const result = cli(args, { cwd: root });
  assert.equal(result.code, 0, `codelabgen ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** A copy of `init course --title "Hand made" --example` (made once per file). */
function exampleCourse(): string {
  return copyOfCourse('example', (root) => {
    const result = cli(['init', path.basename(root), '--title', 'Hand made', '--example'], { cwd: path.dirname(root) });
    assert.equal(result.code, 0, result.stderr);
  });
}

function lessonsInState(root: string): Array<[string, string, string]> {
  const state = readState(root) as { lesson_order: string[]; lessons: Record<string, { stage: string; dir: string }> };
  return state.lesson_order.map((id) => [id, state.lessons[id]!.stage, state.lessons[id]!.dir]);
}

describe('init --example', () => {
  test('creates a registered sample lesson that verify and check pass (node)', () => {
    const root = path.join(work, 'node-course');
    const out = ok(work, 'init', 'node-course', '--title', 'Hand made', '--example');
    assert.match(
      out,
      /^added sample lesson 1\.1 "A first lesson" in 1-first-steps\/1\.1-a-first-lesson\/ \(runtime node\): code, test, readalong, notes, spec$/m,
    );
    assert.match(out, /^preview: cd node-course && codelabgen site dev$/m);
    assert.deepEqual(lessonsInState(root), [['1.1', 'pending', '1-first-steps/1.1-a-first-lesson']]);
    assert.deepEqual(
      readEvents(root).map((event) => event.kind),
      ['course.init', 'lessons.register'],
    );
    const lesson = path.join(root, '1-first-steps', '1.1-a-first-lesson');
    for (const file of ['src/greet.mjs', 'test/greet.test.mjs', 'docs/readalong.md', 'docs/notes.md'])
      assert.ok(exists(path.join(lesson, file)), file);
    assert.match(readFileSync(path.join(lesson, 'docs', 'notes.md'), 'utf8'), /```mermaid\n/);
    assert.match(
      readFileSync(path.join(root, '.codelabgen', 'lessons', '1.1', 'spec.yaml'), 'utf8'),
      /^lesson: "1\.1"\ntitle: "A first lesson"\n/,
    );
    assert.match(ok(root, 'verify', '1.1'), /^lesson 1\.1 passed: 2 tests \(2 passed, 0 failed, 0 skipped\)/);
    assert.match(
      ok(root, 'check'),
      /^ok {3}lesson docs: code references, links and images resolve \(4 references, 0 links, 0 images\)$/m,
    );
  });

  test('publishes lessons whose tests pass (site.publish: verified); site build of 0 lessons exits 1 saying what to set', () => {
    const root = exampleCourse();
    const config = path.join(root, '.codelabgen', 'config.yaml');
    assert.match(readFileSync(config, 'utf8'), /^site:\n {2}publish: verified /m);
    const out = path.join(work, 'publish-out');
    // A fresh site cache: the Astro worker runs in a folder it makes there (pipeline/site/worker-fork.ts).
    const cacheHome = path.join(work, 'publish-cache');
    const none = cli(['site', 'build', '--out', out], {
      cwd: root,
      timeoutMs: 300_000,
      env: { XDG_CACHE_HOME: cacheHome },
    });
    assert.equal(none.code, 1, none.stderr);
    assert.match(
      none.stderr,
      new RegExp(
        String.raw`^error: site build: 0 lessons to publish: site\.publish is verified and no lesson's tests have passed ` +
          String.raw`\(1\.1 \(pending\)\); run codelabgen verify --all, set site\.publish: all in ` +
          String.raw`\.codelabgen\/config\.yaml, or build with --drafts$`,
        'm',
      ),
    );
    writeFileSync(config, readFileSync(config, 'utf8').replace(/publish: verified/, 'publish: done'));
    const notDone = cli(['site', 'build', '--out', out], { cwd: root, timeoutMs: 300_000 });
    assert.equal(notDone.code, 1, notDone.stderr);
    assert.match(
      notDone.stderr,
      new RegExp(
        String.raw`^error: site build: 0 lessons to publish: site\.publish is done and no lesson is at stage done \(1\.1 ` +
          String.raw`\(pending\)\); to publish lessons whose tests pass set site\.publish: verified \(or all\) in ` +
          String.raw`\.codelabgen\/config\.yaml, or build with --drafts$`,
        'm',
      ),
    );
    assert.ok(!exists(out), 'nothing was built');
    assert.ok(!exists(path.join(cacheHome, 'codelabgen', 'site')), 'a build of 0 lessons started Astro');
    assert.equal(readEvents(root).filter((event) => event.kind === 'site.build').length, 0);
    // Under the default rule verify --all keeps to verified lessons; under verified it runs every lesson.
    assert.match(ok(root, 'verify', '--all'), /^0 lessons: /m);
    writeFileSync(config, readFileSync(config, 'utf8').replace(/publish: done/, 'publish: verified'));
    assert.match(ok(root, 'verify', '--all'), /^1 lessons: 1 passed/m);
  });

  test('check names a broken relative link or image of a lesson doc by doc and line, as the site build does', () => {
    const root = exampleCourse();
    const doc = path.join(root, '1-first-steps', '1.1-a-first-lesson', 'docs', 'notes.md');
    const lines = readFileSync(doc, 'utf8').split('\n').length;
    appendFileSync(
      doc,
      '\nSee [the readalong](readalong.md) and [nowhere](missing.txt).\n\n![A diagram](img/missing.png)\n',
    );
    const result = cli(['check'], { cwd: root });
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /^FAIL lesson docs: code references, links and images resolve \(4 references, 2 links, 1 image\)$/m,
    );
    const problems = result.stdout.split('\n').filter((line) => line.startsWith('     - '));
    assert.deepEqual(problems, [
      `     - lesson 1.1 docs/notes.md:${lines + 1}: link missing.txt: docs/missing.txt of lesson 1.1 has no ` +
        'page of its own (link a lesson folder or its docs/readalong.md or docs/notes.md; show code with a code ' +
        'reference)',
      `     - lesson 1.1 docs/notes.md:${lines + 3}: image img/missing.png: no such file in the lesson folder (looked for docs/img/missing.png)`,
    ]);
  });

  test('--runtime python writes the runtime into config.yaml and a python sample that verify and check pass', () => {
    const root = path.join(work, 'python-course');
    const init = JSON.parse(
      ok(work, 'init', 'python-course', '--title', 'Hand made', '--runtime', 'python', '--example', '--json'),
    ) as { example: Record<string, unknown> };
    assert.deepEqual(init.example, {
      lesson: '1.1',
      dir: '1-first-steps/1.1-a-first-lesson',
      runtime: 'python',
      files: [
        '1-first-steps/1.1-a-first-lesson/docs/notes.md',
        '1-first-steps/1.1-a-first-lesson/docs/readalong.md',
        '1-first-steps/1.1-a-first-lesson/greet.py',
        '1-first-steps/1.1-a-first-lesson/tests/__init__.py',
        '1-first-steps/1.1-a-first-lesson/tests/test_greet.py',
        '.codelabgen/lessons/1.1/spec.yaml',
      ],
    });
    assert.match(
      readFileSync(path.join(root, '.codelabgen', 'config.yaml'), 'utf8'),
      /^runtime: python {10}# node \| python/m,
    );
    const lesson = path.join(root, '1-first-steps', '1.1-a-first-lesson');
    for (const file of ['greet.py', 'tests/__init__.py', 'tests/test_greet.py', 'docs/readalong.md', 'docs/notes.md'])
      assert.ok(exists(path.join(lesson, file)), file);
    assert.match(ok(root, 'verify', '1.1'), /^lesson 1\.1 passed: 2 tests/);
    ok(root, 'check');
  });

  test('refuses a runtime without a template, or one that contradicts an existing config, before creating anything', () => {
    const dir = path.join(work, 'refusals');
    ok(work, 'init', 'refusals', '--title', 'Other');
    refused(
      work,
      ['init', 'custom-course', '--title', 'T', '--runtime', 'custom', '--example'],
      /^error: init --example: there is no lesson template for runtime custom; templates exist for node and python$/,
    );
    assert.ok(!exists(path.join(work, 'custom-course')));
    refused(
      work,
      ['init', 'x', '--title', 'T', '--runtime', 'ruby'],
      /^error: init: --runtime ruby is not one of node, python, python-uv, custom$/,
    );
    refused(
      dir,
      ['init', '.', '--title', 'T', '--runtime', 'python'],
      /^error: init: \.codelabgen\/config\.yaml already says runtime: node; --runtime python disagrees$/,
    );
  });
});

describe('init --example where the sample lesson would go', () => {
  test('refuses, leaving nothing behind (no .codelabgen/), and a retry gives the same refusal', {
    timeout: 120_000,
  }, () => {
    const root = path.join(work, 'occupied');
    const lesson = path.join(root, '1-first-steps', '1.1-a-first-lesson');
    mkdirSync(lesson, { recursive: true });
    writeFileSync(path.join(lesson, 'mine.txt'), "the author's own file\n");
    for (let attempt = 0; attempt < 2; attempt++)
      refused(
        work,
        ['init', 'occupied', '--title', 'T', '--example'],
        /^error: init --example: 1-first-steps\/1\.1-a-first-lesson already exists; lesson 1\.1 would overwrite it$/,
      );
    assert.deepEqual(readdirSync(root), ['1-first-steps']);
    assert.deepEqual(readdirSync(lesson), ['mine.txt']);
    const fresh = path.join(work, 'fresh', 'deeper');
    mkdirSync(path.join(fresh, '1-first-steps', '1.1-a-first-lesson'), { recursive: true });
    refused(work, ['init', 'fresh/deeper', '--title', 'T', '--example', '--ci', 'github'], /^error: init --example: /);
    assert.deepEqual(readdirSync(fresh), ['1-first-steps'], 'no .codelabgen/, .gitignore or .github/ left');
  });
});

describe('new module and new lesson', () => {
  test('add registered, pending lessons with derived ids and slugs from the template', () => {
    const root = exampleCourse();
    const curriculum = path.join(root, '.codelabgen', 'curriculum.yaml');
    writeFileSync(curriculum, `# the author's note on the plan\n${readFileSync(curriculum, 'utf8')}`);
    assert.match(
      ok(root, 'new', 'lesson', '1', 'Writable streams & drain'),
      /^added lesson 1\.2 "Writable streams & drain" \(pending, seq 3\) in 1-first-steps\/1\.2-writable-streams-drain\/ from the node template$/m,
    );
    const added = JSON.parse(
      ok(root, 'new', 'module', 'Composing streams', '--lesson', 'pipeline() and errors', '--json'),
    ) as Record<string, unknown>;
    assert.deepEqual(added.module, { id: '2', slug: 'composing-streams', title: 'Composing streams' });
    assert.deepEqual(added.lesson, {
      id: '2.1',
      slug: 'pipeline-and-errors',
      title: 'pipeline() and errors',
      dir: '2-composing-streams/2.1-pipeline-and-errors',
    });
    ok(root, 'new', 'lesson', '2', 'Über Café', '--slug', 'cafe');
    assert.deepEqual(lessonsInState(root), [
      ['1.1', 'pending', '1-first-steps/1.1-a-first-lesson'],
      ['1.2', 'pending', '1-first-steps/1.2-writable-streams-drain'],
      ['2.1', 'pending', '2-composing-streams/2.1-pipeline-and-errors'],
      ['2.2', 'pending', '2-composing-streams/2.2-cafe'],
    ]);
    assert.deepEqual(
      readEvents(root).map((event) => event.kind),
      ['course.init', 'lessons.register', 'lessons.register', 'lessons.register', 'lessons.register'],
    );
    assert.match(
      readFileSync(path.join(root, '2-composing-streams', '2.2-cafe', 'docs', 'readalong.md'), 'utf8'),
      /^# Read-along: Über Café\n/,
    );
    assert.match(
      readFileSync(curriculum, 'utf8'),
      /^# the author's note on the plan\n/,
      "the author's comment is kept",
    );
    // The rewritten curriculum.yaml is what register reads: registering again changes nothing.
    assert.match(ok(root, 'register'), /^registered 4 lessons: 0 added, 0 updated, 0 removed \(state unchanged\)$/m);
    assert.match(ok(root, 'verify', '2.2'), /^lesson 2\.2 passed/);
    ok(root, 'check');
  });

  test("keep curriculum.yaml's comments, anchors and aliases, key order and indentation", () => {
    const root = exampleCourse();
    const curriculum = path.join(root, '.codelabgen', 'curriculum.yaml');
    const text = [
      '# The plan, edited by hand: keep these notes',
      'modules:',
      '    # module 1: the basics come first',
      '    - slug: first-steps # slug before id on purpose',
      '      id: &first "1"',
      '      title: &steps First steps',
      '      lessons:',
      '          # the sample lesson',
      '          - title: A first lesson # beside a lesson',
      '            id: &intro "1.1"',
      '            slug: a-first-lesson',
      '            objectives: &shared [Run the tests]',
      '          # lessons of module 1 end here',
      'title: Hand made # the title after the modules',
      'summary: *steps',
      '',
    ].join('\n');
    writeFileSync(curriculum, text);
    ok(root, 'new', 'lesson', '1', 'Writable streams');
    ok(root, 'new', 'module', 'Composing streams', '--lesson', 'Errors');
    const edited = readFileSync(curriculum, 'utf8');
    let at = 0; // the author's lines, in order, within the edited text
    for (const line of edited.split('\n')) if (line === text.split('\n')[at]) at++;
    assert.equal(at, text.split('\n').length, `every line of the author's text is still there, in order:\n${edited}`);
    assert.ok(
      edited.indexOf('writable-streams') < edited.indexOf('# lessons of module 1 end here'),
      `the lesson goes at the end of its module:\n${edited}`,
    );
    assert.match(
      edited,
      /^ {4}- id: "2"\n {6}slug: composing-streams\n {6}title: Composing streams\n {6}lessons:\n {10}- id: "2\.1"\n/m,
      'the new module is indented as the file is',
    );
    assert.deepEqual(
      load(edited),
      {
        modules: [
          {
            slug: 'first-steps',
            id: '1',
            title: 'First steps',
            lessons: [
              { title: 'A first lesson', id: '1.1', slug: 'a-first-lesson', objectives: ['Run the tests'] },
              { id: '1.2', slug: 'writable-streams', title: 'Writable streams' },
            ],
          },
          {
            id: '2',
            slug: 'composing-streams',
            title: 'Composing streams',
            lessons: [{ id: '2.1', slug: 'errors', title: 'Errors' }],
          },
        ],
        title: 'Hand made',
        summary: 'First steps',
      },
      'the aliases still read as what they name',
    );
    // What register reads: registering again changes nothing.
    assert.deepEqual(
      lessonsInState(root).map(([id, , dir]) => `${id} ${dir}`),
      [
        '1.1 1-first-steps/1.1-a-first-lesson',
        '1.2 1-first-steps/1.2-writable-streams',
        '2.1 2-composing-streams/2.1-errors',
      ],
    );
    assert.match(ok(root, 'register'), /^registered 3 lessons: 0 added, 0 updated, 0 removed \(state unchanged\)$/m);
  });

  test('each refusal exits 2 with one error: line and changes no file', () => {
    const root = exampleCourse();
    refused(
      root,
      ['new', 'lesson', '7', 'Anything'],
      /^error: new lesson: no module "7" in \.codelabgen\/curriculum\.yaml \(modules: 1\)$/,
    );
    refused(
      root,
      ['new', 'lesson', '1', 'A first lesson!'],
      /^error: new lesson: lesson 1\.1 "A first lesson" of module 1 already has the slug "a-first-lesson"$/,
    );
    refused(
      root,
      ['new', 'lesson', '1', 'Other', '--slug', 'a-first-lesson'],
      /already has the slug "a-first-lesson"$/,
    );
    refused(
      root,
      ['new', 'module', 'First  steps'],
      /^error: new module: module 1 "First steps" already has the slug "first-steps"$/,
    );
    refused(
      root,
      ['new', 'lesson', '1', '¿¡!'],
      /^error: new lesson: no slug can be made from the title "¿¡!" \(it has no letters or digits a-z, 0-9\)$/,
    );
    refused(
      root,
      ['new', 'lesson', '1', 'Fine', '--slug', 'Not A Slug'],
      /^error: new lesson: --slug "Not A Slug" is not a lowercase kebab-case slug/,
    );
    refused(root, ['new', 'module', '   '], /^error: new module: the title is empty$/);
    // A folder already in the way of the next lesson, and a course whose runtime has no template.
    ok(root, 'state', 'log', 'note'); // state moves on; the refusals below must still leave it as it is
    writeFileSync(path.join(root, '1-first-steps', '1.2-in-the-way'), 'mine');
    refused(
      root,
      ['new', 'lesson', '1', 'In the way'],
      /^error: new lesson: 1-first-steps\/1\.2-in-the-way already exists; lesson 1\.2 would overwrite it$/,
    );
    const config = path.join(root, '.codelabgen', 'config.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace(/^runtime: node/m, 'runtime: custom'));
    refused(
      root,
      ['new', 'lesson', '1', 'Custom'],
      /^error: new lesson: there is no lesson template for runtime custom; templates exist for node and python$/,
    );
  });

  test('new lesson in a course without a curriculum points to new module', () => {
    const root = copyOfCourse('plain', (dir) => assert.equal(cli(['init', dir, '--title', 'Plain']).code, 0));
    refused(
      root,
      ['new', 'lesson', '1', 'Anything'],
      /^error: new lesson: no module "1": \.codelabgen\/curriculum\.yaml has no modules yet$/,
    );
    // The lesson a module starts with is named, and how to name it otherwise.
    assert.match(
      ok(root, 'new', 'module', 'Basics'),
      new RegExp(
        String.raw`^added module 1 "Basics" to curriculum\.yaml, with its first lesson \(a module starts with one; name ` +
          String.raw`it with --lesson "Title"\):\nadded lesson 1\.1 "Introduction"`,
        'm',
      ),
    );
    assert.match(
      ok(root, 'new', 'module', 'More', '--lesson', 'First things'),
      /^added module 2 "More" to curriculum\.yaml, with its first lesson:\nadded lesson 2\.1 "First things"/m,
    );
    assert.match(readFileSync(path.join(root, '.codelabgen', 'curriculum.yaml'), 'utf8'), /^title: "Plain"\n/m);
  });
});
