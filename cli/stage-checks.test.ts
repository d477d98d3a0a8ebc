// Each stage checks its own artifacts with the rules `check` applies (one implementation,
// pipeline/site/stage-docs.ts): a move to readalong refuses a broken code reference, a move to notes
// a diagram that does not parse, each named by doc and line; `check` parses every diagram without
// drawing it (no browser), mermaid's own message with its line breaks.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { advance, courseWithLessons, LESSON_DIRS, ok, refused, write } from './protocol-fixture.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, cli, REPO_ROOT, removeDir, snapshot } from './testing.ts';

const BROKEN_FLOWCHART = 'flowchart LR\n  source --> transform\n  transform --> --> sink\n  sink --> done\n';

describe('stage moves check their own docs', () => {
  let root: string;
  before(() => {
    root = courseWithLessons({ '1.1': 'verified' }, { register: true });
  });
  after(() => removeDir(path.dirname(root)));

  test('state set <id> readalong refuses a code reference past the end of the file, naming doc and line', () => {
    const doc = `${LESSON_DIRS['1.1']}/docs/readalong.md`;
    write(root, doc, '# Read along\n\nThe answer:\n\n```js file=main.mjs lines=1-40\n```\n');
    refused(
      root,
      ['state', 'set', '1.1', 'readalong'],
      /^error: lesson 1\.1: cannot move to readalong: lesson 1\.1 docs\/readalong\.md:5: code reference .*\b40\b/,
    );
    write(root, doc, '# Read along\n\nThe answer:\n\n```js file=main.mjs lines=1\n```\n');
    ok(root, 'state', 'set', '1.1', 'readalong');
  });

  test("state set <id> notes refuses a diagram that does not parse, at its line in the doc, with mermaid's lines", () => {
    const doc = `${LESSON_DIRS['1.1']}/docs/notes.md`;
    write(root, doc, `# Notes\n\nThe flow:\n\n\`\`\`mermaid\n${BROKEN_FLOWCHART}\`\`\`\n`);
    const result = refused(
      root,
      ['state', 'set', '1.1', 'notes'],
      // The fence opens on line 5; mermaid's "line 3" of the diagram is the doc's line 8.
      /^error: lesson 1\.1: cannot move to notes: lesson 1\.1 docs\/notes\.md:8: diagram does not parse: Parse error on line 3:$/,
    );
    // The rest of mermaid's message keeps its line breaks: the caret stays under the place.
    assert.match(result.stderr, /\nhint: \.\.\..*transform --> --> sink.*\nhint: -+\^\nhint: Expecting /);
    write(root, doc, '# Notes\n\nThe flow:\n\n```mermaid\nflowchart LR\n  source --> sink\n```\n');
    ok(root, 'state', 'set', '1.1', 'notes');
  });

  test('a broken docs/diagrams/*.mmd refuses the move to notes too', () => {
    advance(root, '1.2', 'readalong');
    write(root, `${LESSON_DIRS['1.2']}/docs/notes.md`, '# Notes\n');
    write(root, `${LESSON_DIRS['1.2']}/docs/diagrams/flow.mmd`, BROKEN_FLOWCHART);
    refused(
      root,
      ['state', 'set', '1.2', 'notes'],
      /cannot move to notes: lesson 1\.2 docs\/diagrams\/flow\.mmd:3: diagram does not parse: Parse error on line 3:$/,
    );
  });

  test('over MCP, state_set refuses the same move with the same words (after tools/list, as hosts do)', async (t) => {
    const env: Record<string, string> = { NO_COLOR: '1' };
    for (const [key, value] of Object.entries(process.env))
      if (value !== undefined && key !== 'CODELABGEN_COURSE') env[key] = value;
    const client = new Client({ name: 'stage-checks-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--course', root],
        env,
        stderr: 'ignore',
      }),
    );
    t.after(() => client.close());
    await client.listTools();
    const before = snapshot(root);
    const result = (await client.callTool({ name: 'state_set', arguments: { id: '1.2', stage: 'notes' } })) as {
      isError?: boolean;
      content: Array<{ type: string; text: string }>;
    };
    assert.equal(result.isError, true);
    const text = result.content.map((item) => item.text).join('\n');
    assert.match(
      text,
      /cannot move to notes: lesson 1\.2 docs\/diagrams\/flow\.mmd:3: diagram does not parse: Parse error on line 3:/,
    );
    assert.deepEqual(snapshot(root), before, 'a refused state_set changed files');
  });

  test("check reports the broken diagram by doc and line, mermaid's message indented under it", () => {
    const check = cli(['check'], { cwd: root });
    assert.equal(check.code, 1, check.stdout + check.stderr);
    assert.match(
      check.stdout,
      new RegExp(
        String.raw`^FAIL diagrams parse \(mermaid, not drawn: 2 diagrams\)\n {5}- lesson 1\.2 ` +
          String.raw`docs\/diagrams\/flow\.mmd:3: diagram does not parse: Parse error on line 3:\n {7}\.\.\..*\n {7}-+\^\n ` +
          '{7}Expecting ',
        'm',
      ),
    );
  });
});

test("check parses mermaid's own documentation corpus (every diagram type) with no browser", () => {
  const root = courseWithLessons({}, { register: true });
  try {
    const corpus = path.join(REPO_ROOT, 'pipeline', 'site', 'fixtures', 'mermaid-corpus');
    const files = readdirSync(corpus).filter((name) => name.endsWith('.mmd'));
    for (const name of files)
      write(root, `${LESSON_DIRS['2.1']}/docs/diagrams/${name}`, readFileSync(path.join(corpus, name), 'utf8'));
    // No Chromium to find: the parse never draws. A cache of its own: every diagram is parsed here.
    const check = cli(['check'], {
      cwd: root,
      env: {
        CODELABGEN_CHROMIUM: '/nonexistent/chromium',
        PLAYWRIGHT_BROWSERS_PATH: '/nonexistent',
        CODELABGEN_DIAGRAM_CACHE: path.join(path.dirname(root), 'diagram-cache'),
      },
    });
    assert.match(
      check.stdout,
      new RegExp(`^ok {3}diagrams parse \\(mermaid, not drawn: ${files.length} diagrams\\)$`, 'm'),
    );
    assert.ok(files.length > 150, `the corpus has ${files.length} diagrams`);
  } finally {
    removeDir(path.dirname(root));
  }
});

test('a diagram is parsed once: its outcome is kept by content hash, and only a new or changed source is parsed again', () => {
  const root = courseWithLessons({}, { register: true });
  const cache = path.join(path.dirname(root), 'diagram-cache');
  const env = { CODELABGEN_DIAGRAM_CACHE: cache };
  try {
    write(root, `${LESSON_DIRS['2.1']}/docs/diagrams/flow.mmd`, 'flowchart LR\n  a --> b\n');
    const first = cli(['check'], { cwd: root, env });
    assert.match(first.stdout, /^ok {3}diagrams parse \(mermaid, not drawn: 1 diagram\)$/m, first.stdout);
    const kept = readdirSync(path.join(cache, 'parsed'));
    assert.ok(kept.length >= 1, `outcomes kept: ${kept.join(', ')}`);
    // A kept outcome is used as it is: the parser does not run again for an unchanged source.
    for (const name of kept)
      writeFileSync(path.join(cache, 'parsed', name), JSON.stringify({ error: 'Planted outcome on line 1' }));
    const second = cli(['check'], { cwd: root, env });
    assert.equal(second.code, 1, second.stdout + second.stderr);
    assert.match(second.stdout, /docs\/diagrams\/flow\.mmd:1: diagram does not parse: Planted outcome on line 1/);
    // A changed source has another hash: parsed anew (it parses), and kept beside the others.
    write(root, `${LESSON_DIRS['2.1']}/docs/diagrams/flow.mmd`, 'flowchart LR\n  a --> c\n');
    const third = cli(['check'], { cwd: root, env });
    assert.doesNotMatch(third.stdout, /flow\.mmd.*Planted/);
    assert.equal(readdirSync(path.join(cache, 'parsed')).length, kept.length + 1);
  } finally {
    removeDir(path.dirname(root));
  }
});
