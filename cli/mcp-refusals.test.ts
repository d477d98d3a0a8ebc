import { McpError, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { prng } from './fuzz-cases.ts';
import { elicitingClient, listedClient, textOf, type ToolAnswer } from './mcp-client.ts';
import { COMMANDS } from './commands.ts';
import { mcpTools } from './mcp/tools.ts';
import { cli, scratchCourse, snapshot, tempDir } from './testing.ts';

/** The course every row works on (at init, no lessons, no tasks) and a folder that is no course. */
const COURSE = scratchCourse('Refusals');
const BARE = tempDir();
const NO_COURSE = /^error: `course: ".*"`: not a course directory \(no \.codelabgen\/ folder\)$/;
const CREATE = /^hint: create one with: init \{"course":"DIR","title":"Course title"\}$/;

/** One refusal per tool: its arguments, the error line it gets, and a hint it carries (when it has one). */
const REFUSALS: Record<string, { args: Record<string, unknown>; error: RegExp; hint?: RegExp }> = {
  init: { args: { title: 'T'.repeat(201) }, error: /^error: init: `title` is 201 characters; the limit is 200$/ },
  state_show: { args: { course: BARE }, error: NO_COURSE, hint: CREATE },
  state_log: { args: { kind: 'fact', lesson: '9.9' }, error: /unknown lesson "9\.9"/ },
  state_rebuild: { args: { course: BARE }, error: NO_COURSE },
  state_phase: {
    args: { next: 'sources' },
    error: /^error: cannot move from init to sources: .* the next phase is recon$/,
  },
  state_set: { args: { id: '9.9', stage: 'spec' }, error: /unknown lesson "9\.9"/ },
  state_rework: { args: { id: '9.9', stage_to_redo: 'spec', note: 'n' }, error: /unknown lesson "9\.9"/ },
  state_fail: { args: { id: '9.9', note: 'n' }, error: /unknown lesson "9\.9"/ },
  state_block: { args: { id: '9.9', reason: 'r' }, error: /unknown lesson "9\.9"/ },
  state_unblock: { args: { id: '9.9', note: 'n' }, error: /unknown lesson "9\.9"/ },
  state_stale: { args: { id: '9.9', reason: 'r' }, error: /unknown lesson "9\.9"/ },
  state_stages: {
    args: { all: true },
    error: /^error: state_stages: unknown argument "all" \(state_stages takes no arguments\)$/,
  },
  state_next: { args: { course: BARE }, error: NO_COURSE, hint: CREATE },
  state_task_start: {
    args: { phase: 'recon', role: 'researcher' },
    error: /^error: `phase: "recon"`: the course is at phase init; a phase task is for the current phase$/,
  },
  state_task_heartbeat: {
    args: { task: 't9' },
    error: /^error: unknown task "t9"$/,
    hint: /^hint: list tasks with: state_task_list \{\}$/,
  },
  state_task_done: {
    args: { task: 't9' },
    error: /^error: unknown task "t9"$/,
    hint: /^hint: list tasks with: state_task_list \{\}$/,
  },
  state_task_fail: { args: { task: 't9' }, error: /^error: unknown task "t9"$/ },
  state_task_reset: { args: { task: 't9' }, error: /^error: unknown task "t9"$/ },
  state_task_list: { args: { course: BARE }, error: NO_COURSE },
  status_check: { args: { status: { lesson: '1.1', status: 'maybe' } }, error: /^error: \(stdin\)/ },
  register: { args: {}, error: /curriculum\.yaml/ },
  new_module: { args: { title: 'M', slug: 'Not A Slug' }, error: /^error: / },
  new_lesson: { args: { module_id: '9', title: 'L' }, error: /module "?9"?/ },
  report: { args: { course: BARE }, error: NO_COURSE },
  verify: { args: {}, error: /^error: verify: give one lesson id or `all: true`$/ },
  schema_list: { args: { name: 'state' }, error: /^error: schema_list: unknown argument "name"/ },
  schema_show: { args: { name: 'nope' }, error: /^error: schema_show: name "nope": expected one of / },
  conventions: { args: { topic: 'nope' }, error: /^error: conventions: topic "nope": expected one of / },
  check: { args: { course: BARE }, error: NO_COURSE },
  site_build: { args: { out: path.join(COURSE, 'site') }, error: /^error: `out: ".*"` is inside the course directory/ },
};

test('every tool refused reaches the SDK client, after tools/list, as isError with its error and hints in tool terms; nothing changes', {
  timeout: 180_000,
}, async () => {
  assert.deepEqual(
    Object.keys(REFUSALS).sort(),
    mcpTools()
      .map((tool) => tool.name)
      .sort(),
    'a row per tool',
  );
  const mcp = await listedClient(COURSE, COURSE);
  try {
    for (const [name, { args, error, hint }] of Object.entries(REFUSALS)) {
      const before = snapshot(COURSE);
      // The SDK's client throws "Structured content does not match the tool's output schema" on a refusal it cannot take.
      const answer = await mcp.call(name, args);
      assert.equal(answer.isError, true, `${name}: ${textOf(answer)}`);
      assert.equal(answer._meta?.['codelabgen/exit_code'], 2, name);
      const lines = (answer.content.at(-1)!.text ?? '').split('\n');
      assert.match(lines[0]!, error, name);
      if (hint)
        assert.ok(
          lines.slice(1).some((line) => hint.test(line)),
          `${name}: no hint ${hint} in ${lines.join('\n')}`,
        );
      assert.deepEqual(
        answer._meta?.['codelabgen/error'],
        {
          error: lines[0]!.slice('error: '.length),
          hints: lines.slice(1).map((line) => line.replace(/^hint: /, '')),
        },
        `${name}: the refusal, structured, in _meta`,
      );
      assert.doesNotMatch(
        textOf(answer),
        /codelabgen [a-z]|(?<![\w-])--[a-z]/,
        `${name}: CLI words in ${textOf(answer)}`,
      );
      assert.deepEqual(snapshot(COURSE), before, `${name}: a refusal changed files`);
    }
  } finally {
    await mcp.close();
  }
});

test('what a client is told: unknown resources are -32002 with their URI, required arguments are required, a/an', {
  timeout: 60_000,
}, async () => {
  const mcp = await listedClient(COURSE, COURSE);
  try {
    for (const uri of [
      'codelabgen://nope',
      'codelabgen://lesson/9.9',
      'codelabgen://lesson/9.9/run/1',
      'codelabgen://report',
      'codelabgen://conventions/nope',
    ])
      await assert.rejects(mcp.client.readResource({ uri }), (error: { code?: number; data?: unknown }) => {
        assert.equal(error.code, -32002, uri);
        assert.deepEqual(error.data, { uri }, uri);
        return true;
      });
    // A subscription to a URI no resource or template serves is refused as its read is (it was accepted, and never updated).
    for (const uri of ['codelabgen://nope', 'codelabgen://conventions/nope', 'codelabgen://lesson', ''])
      await assert.rejects(mcp.client.subscribeResource({ uri }), (error: { code?: number; data?: unknown }) => {
        assert.equal(error.code, -32002, uri);
        assert.deepEqual(error.data, { uri }, uri);
        return true;
      });
    // A resource's, or a lesson's to come (register announces it): taken.
    for (const uri of ['codelabgen://state', 'codelabgen://report', 'codelabgen://lesson/9.9']) {
      await mcp.client.subscribeResource({ uri });
      await mcp.client.unsubscribeResource({ uri });
    }
    // Completions of a prompt or template there is none of: -32602 (they were the course's lesson ids);
    // of an argument the prompt does not take: none.
    const complete = (
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
      name: string,
    ) => mcp.client.complete({ ref, argument: { name, value: '' } });
    for (const [ref, message] of [
      [{ type: 'ref/prompt', name: 'nope' }, 'completion/complete: no prompt "nope" (see prompts/list)'],
      [
        { type: 'ref/resource', uri: 'codelabgen://nope/{id}' },
        'completion/complete: no resource template "codelabgen://nope/{id}" (see resources/templates/list)',
      ],
    ] as const)
      await assert.rejects(complete(ref, 'lesson'), (error: { code?: number; message?: string }) => {
        assert.equal(error.code, -32602, JSON.stringify(ref));
        assert.equal(error.message, `MCP error -32602: MCP error -32602: ${message}`);
        return true;
      });
    assert.deepEqual((await complete({ type: 'ref/prompt', name: 'researcher' }, 'lesson')).completion.values, []);
    assert.deepEqual(
      (await complete({ type: 'ref/prompt', name: 'researcher' }, 'phase')).completion.values.length > 0,
      true,
    );
    // A prompt's arguments are checked by its own list: the prompt and the argument named (an unknown one was
    // dropped silently; a missing lesson was "Invalid arguments for prompt code-author: Invalid input: ...").
    for (const [name, args, message] of [
      ['code-author', {}, 'prompt code-author: lesson is required'],
      ['code-author', { course: COURSE }, 'prompt code-author: lesson is required'],
      [
        'code-author',
        { lesson: '1.1', lessons: '1.2' },
        'prompt code-author: unknown argument "lessons" (code-author takes lesson, course)',
      ],
      [
        'researcher',
        { lesson: '1.1' },
        'prompt researcher: unknown argument "lesson" (researcher takes phase, course)',
      ],
      [
        'orchestrate',
        { course: COURSE },
        'prompt orchestrate: unknown argument "course" (orchestrate takes no arguments)',
      ],
      ['code-author', { lesson: 7 }, 'prompt code-author: lesson: Invalid input: expected string, received number'],
    ] as const)
      await assert.rejects(
        mcp.client.getPrompt({ name, arguments: args as Record<string, string> }),
        (error: { code?: number; message?: string }) => {
          assert.equal(error.code, -32602, `${name} ${JSON.stringify(args)}`);
          assert.equal(error.message, `MCP error -32602: MCP error -32602: ${message}`);
          return true;
        },
      );
    // A value with an escaped quote stays one value in a refusal's text (was `site: "a\"`b) c"`).
    assert.match(
      textOf(await mcp.call('site_build', { site: 'a"b) c' })),
      /^error: `site: "a\\"b\) c"`: use the site's public http\(s\) URL/,
    );
    const { tools } = await mcp.client.listTools();
    // Resources are described in tool terms: "(state next)" was a command's words, not the tool state_next.
    const commandWords = new RegExp(
      `\\b(?:${mcpTools()
        .map((tool) => tool.command.name)
        .filter((name) => name.includes(' '))
        .join('|')})\\b`,
    );
    for (const resource of [
      ...(await mcp.client.listResources()).resources,
      ...(await mcp.client.listResourceTemplates()).resourceTemplates,
    ])
      assert.doesNotMatch(resource.description ?? '', commandWords, resource.name);
    // A description ended with "(CLI: `init {"course":"[DIR]"}`)": a tool call (the translation of `init [DIR]`) called the CLI.
    for (const tool of tools) assert.doesNotMatch(tool.description ?? '', /\(CLI: /, tool.name);
    // One `type` per schema: the Inspector's --strict warned of report's eight `type: ["string", "null"]`.
    const typeArrays = (schema: unknown, at: string): string[] =>
      typeof schema !== 'object' || schema === null
        ? []
        : Object.entries(schema).flatMap(([key, value]) =>
            key === 'type' && Array.isArray(value) ? [at] : typeArrays(value, `${at}.${key}`),
          );
    assert.deepEqual(
      tools.flatMap((tool) => [
        ...typeArrays(tool.inputSchema, `${tool.name}.inputSchema`),
        ...typeArrays(tool.outputSchema, `${tool.name}.outputSchema`),
      ]),
      [],
    );
    // Nor a placeholder of a CLI usage line or option value (init's "Creates DIR/.codelabgen/", where the tool takes
    // `course`), outside a call's arguments (`state_set {"stage":"<stage>"}`) and inside a path (`runs/<id>/`).
    const placeholders = new Set<string>();
    for (const command of COMMANDS) {
      const words = [
        ...(command.args ?? '').split(/[\s|]+/).map((word) => word.replace(/^[["]+|[\]"]+$|\.\.\.$/g, '')),
        ...Object.values(command.options ?? {}).flatMap((option) => (option.value ?? '').split(/[=/|:[\]]+/)),
      ];
      for (const word of words) if (/^<[\w-]+>$|^[A-Z][A-Z_]*$/.test(word)) placeholders.add(word);
    }
    assert.ok(['DIR', 'ID', 'N', '<module-id>', '<stage-to-redo>'].every((word) => placeholders.has(word)));
    for (const tool of tools) {
      const prose = (tool.description ?? '').replace(/\{[^{}]*\}/g, '{}');
      for (const placeholder of placeholders)
        assert.doesNotMatch(
          prose,
          new RegExp(String.raw`(?<![\w/<-])${placeholder.replace(/[<>-]/g, '\\$&')}(?![\w>-])`),
          `${tool.name}: ${tool.description}`,
        );
    }
    const init = tools.find((tool) => tool.name === 'init')!;
    assert.deepEqual(init.inputSchema.required, ['title'], 'init says title (required) and requires it');
    const missing = await mcp.call('state_set', { id: '1.1' });
    assert.equal(textOf(missing), 'error: state_set: stage is required');
    const titles = (await mcp.client.listPrompts()).prompts.map((prompt) => prompt.title);
    // No article to get wrong ("Brief a example-designer" was the issue's).
    assert.ok(titles.includes('Brief for the example-designer'), titles.join(', '));
    assert.ok(titles.includes('Brief for the code-author'), titles.join(', '));
  } finally {
    await mcp.close();
  }
});

const BAD_SEED = Number(process.env.MCP_REFUSAL_SEED ?? 1);
const BAD_PER_TOOL = Number(process.env.MCP_REFUSAL_CASES ?? 3);

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  items?: PropertySchema;
}

/** A value its property's schema refuses: another type, a value off its enum, an item of the wrong type. */
function wrongValue(schema: PropertySchema, random: () => number): unknown {
  const types = [schema.type ?? []].flat();
  const choices: unknown[] = [];
  if (!types.includes('string')) choices.push('a string', '../../etc/passwd');
  if (!types.includes('number') && !types.includes('integer')) choices.push(12345, -1.5);
  if (types.includes('integer')) choices.push(1.5);
  if (!types.includes('boolean')) choices.push(true);
  if (!types.includes('array')) choices.push(['x']);
  if (types.includes('array') && schema.items?.type !== undefined) choices.push([wrongValue(schema.items, random)]);
  if (!types.includes('object')) choices.push({ __proto__: { polluted: true } }, {});
  if (!types.includes('null')) choices.push(null);
  if (schema.enum !== undefined && types.includes('string')) choices.push('not-one-of-them');
  return choices[Math.floor(random() * choices.length)];
}

test("arguments a tool's own input schema refuses, for every listed tool (seeded): isError with the error line, nothing changes", {
  timeout: 300_000,
}, async (t) => {
  const random = prng(BAD_SEED);
  let calls = 0;
  const mcp = await listedClient(COURSE, COURSE);
  const problems: string[] = [];
  try {
    const { tools } = await mcp.client.listTools();
    for (const tool of tools) {
      const properties = Object.entries((tool.inputSchema.properties ?? {}) as Record<string, PropertySchema>);
      const required = (tool.inputSchema.required ?? []) as string[];
      for (let at = 0; at < BAD_PER_TOOL; at += 1) {
        // Good values for the required arguments but one: a wrong type, an unknown argument, or a required one left out.
        const args: Record<string, unknown> = {};
        const kind = properties.length === 0 ? 0 : Math.floor(random() * (required.length > 0 ? 3 : 2));
        if (kind === 0) args[`x_${Math.floor(random() * 1000)}`] = 'unknown';
        else if (kind === 1) {
          const [name, schema] = properties[Math.floor(random() * properties.length)]!;
          args[name] = wrongValue(schema, random);
        } else {
          const left = required[Math.floor(random() * required.length)]!;
          for (const name of required) if (name !== left) args[name] = '1.1';
        }
        const what = `${tool.name} ${JSON.stringify(args)} (MCP_REFUSAL_SEED=${BAD_SEED})`;
        const before = snapshot(COURSE);
        let answer: Awaited<ReturnType<typeof mcp.call>>;
        try {
          answer = await mcp.call(tool.name, args);
          calls += 1;
        } catch (error) {
          // A JSON-RPC error (or an answer the SDK's client cannot take) instead of a tool result.
          problems.push(`${what}: ${(error as Error).message}`);
          continue;
        }
        const first = answer.content.at(-1)?.text?.split('\n')[0] ?? '';
        if (answer.isError !== true || !/^error: \S/.test(first) || answer._meta?.['codelabgen/exit_code'] !== 2)
          problems.push(`${what}: not a refusal a client reads: ${JSON.stringify(answer).slice(0, 300)}`);
        else if ((answer._meta?.['codelabgen/error'] as { error?: string } | undefined)?.error !== first.slice(7))
          problems.push(`${what}: _meta codelabgen/error is not the error line ${first}`);
        const after = snapshot(COURSE);
        if (JSON.stringify(after) !== JSON.stringify(before)) problems.push(`${what}: a refusal changed files`);
      }
    }
    t.diagnostic(`${calls} calls answered, over ${tools.length} tools`);
    assert.ok(tools.length >= 30, `tools/list listed ${tools.length} tools`);
  } finally {
    await mcp.close();
  }
  assert.deepEqual(problems, []);
});

test('a NUL character in an argument the CLI takes on its command line is refused by name, and nothing changes', {
  timeout: 60_000,
}, async () => {
  // Before: init's course was an internal error (exit 3, no `error:` line) and site_build's out, base or site a
  // JSON-RPC -32603 (its child could not start); a note was recorded with an argv no command line can carry.
  const calls: Array<[string, Record<string, unknown>, string]> = [
    ['init', { title: 'T', course: path.join(BARE, 'a\u0000b') }, 'course'],
    ['init', { title: 'T', course: '\u0000' }, 'course'],
    ['site_build', { out: path.join(BARE, 'out\u0000') }, 'out'],
    ['site_build', { out: path.join(BARE, 'out'), base: '/b\u0000/' }, 'base'],
    ['site_build', { out: path.join(BARE, 'out'), site: 'https://example.com/\u0000' }, 'site'],
    ['state_log', { kind: 'fact', data: { url: 'a\u0000b' } }, 'data'],
    ['state_task_start', { phase: 'recon', role: 'researcher', lease: '2\u0000m' }, 'lease'],
    ['new_module', { title: 'M', slug: 'm\u0000' }, 'slug'],
  ];
  const mcp = await listedClient(BARE, COURSE);
  try {
    for (const [name, args, argument] of calls) {
      const course = snapshot(COURSE);
      const bare = snapshot(BARE);
      const answer = await mcp.call(name, args);
      assert.equal(answer.isError, true, `${name}: ${textOf(answer)}`);
      assert.equal(answer._meta?.['codelabgen/exit_code'], 2, `${name}: ${textOf(answer)}`);
      assert.equal(
        textOf(answer),
        `error: ${name}: ${argument}: has a NUL character ("\\u0000"), which no command-line argument can hold`,
      );
      assert.deepEqual(snapshot(COURSE), course, `${name}: the course changed`);
      assert.deepEqual(snapshot(BARE), bare, `${name}: the folder beside it changed`);
    }
  } finally {
    await mcp.close();
  }
});

test('a client whose elicitation fails or answers off its schema does not approve: the call is refused, nothing changes', {
  timeout: 60_000,
}, async () => {
  // Before: both were JSON-RPC errors (-32603 "MCP error -32603: MCP error -32603: MCP error -32603: host crashed", and
  // -32602), where a decline is a refusal.
  const root = path.join(tempDir(), 'course');
  for (const args of [
    ['init', root, '--title', 'E', '--example'],
    ['state', 'block', '1.1', '--reason', 'ask me', '--course', root],
  ])
    assert.equal(cli(args).code, 0, args.join(' '));
  const answers: Array<() => ElicitResult> = [
    () => {
      throw new McpError(-32603, 'host crashed');
    },
    () => ({ action: 'accept', content: { approve: 'yes' } }),
  ];
  const client = await elicitingClient(root, () => answers.shift()!());
  try {
    const before = snapshot(root);
    for (const why of [
      'host crashed',
      'Elicitation response content does not match requested schema: data/approve must be boolean',
    ]) {
      const answer = (await client.callTool({ name: 'state_unblock', arguments: { id: '1.1' } })) as ToolAnswer;
      assert.equal(answer.isError, true, textOf(answer));
      assert.equal(answer._meta?.['codelabgen/exit_code'], 2);
      assert.equal(
        textOf(answer),
        `error: state_unblock: the user did not approve (no answer: ${why}): Unblock lesson 1.1? It was blocked: ask me; nothing changed`,
      );
      assert.deepEqual(snapshot(root), before, 'the lesson was unblocked');
    }
    assert.equal(answers.length, 0, 'each call asked');
  } finally {
    await client.close();
  }
});
