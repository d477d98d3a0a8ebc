// Which command a lesson's tests run with: runtime from spec over config, defaults, test_command.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import type { Config } from '../../content-schemas/index.ts';
import { ConfigSchema } from '../../content-schemas/index.ts';
import { RefusalError } from '../course/errors.ts';
import { courseWithLessons, registeredLesson } from './fixtures.ts';
import { resolveTestCommand, uvWorkspace, type CommandProbes } from './runtime.ts';
import type { LessonState } from '../../content-schemas/index.ts';

const config = (extra: Partial<Config> = {}): Config => ({ ...ConfigSchema.parse({}), ...extra });
const probes = (pytest: boolean, executables: string[] = ['python3']): CommandProbes => ({
  hasPytest: async () => pytest,
  isExecutable: (file) => executables.includes(path.basename(file)),
});
const spec = (id: string, extra: string) => `lesson: "${id}"\ntitle: T\ngoal: G\n${extra}`;

async function setup(files: Record<string, string> = {}, specYaml?: string) {
  const course = await courseWithLessons([{ id: '1.1', files, ...(specYaml === undefined ? {} : { spec: specYaml }) }]);
  const registered = registeredLesson('1.1');
  const lesson = { ...registered, stage: 'code' } as LessonState;
  return { course, lesson, dir: path.join(course.root, registered.dir) };
}

test('node: node --test with the running node, in the lesson folder', async () => {
  const { course, lesson, dir } = await setup({ 'a.test.mjs': '' });
  const command = await resolveTestCommand(course, lesson, dir, config(), process.env, probes(false));
  assert.deepEqual(command.argv, [process.execPath, '--test']);
  assert.equal(command.cwd, dir);
  assert.equal(command.prepare, null);
});

test('node: npm test when package.json has a test script; npm ci --ignore-scripts first when locked and not installed', async () => {
  const { course, lesson, dir } = await setup({ 'package.json': '{"scripts":{"test":"node --test"}}' });
  assert.deepEqual((await resolveTestCommand(course, lesson, dir, config(), process.env, probes(false))).argv, [
    'npm',
    'test',
  ]);
  assert.equal((await resolveTestCommand(course, lesson, dir, config(), process.env, probes(false))).prepare, null);
  writeFileSync(path.join(dir, 'package-lock.json'), '{}');
  assert.deepEqual((await resolveTestCommand(course, lesson, dir, config(), process.env, probes(false))).prepare, [
    'npm',
    'ci',
    '--no-audit',
    '--no-fund',
    '--ignore-scripts',
  ]);
  mkdirSync(path.join(dir, 'node_modules'));
  assert.equal((await resolveTestCommand(course, lesson, dir, config(), process.env, probes(false))).prepare, null);
});

test('node: npm ci runs install scripts only when the spec says install_scripts: true', async () => {
  const manifest = { 'package.json': '{"scripts":{"test":"node --test"}}', 'package-lock.json': '{}' };
  const { course, lesson, dir } = await setup(manifest, spec('1.1', 'install_scripts: true\n'));
  assert.deepEqual((await resolveTestCommand(course, lesson, dir, config(), process.env, probes(false))).prepare, [
    'npm',
    'ci',
    '--no-audit',
    '--no-fund',
  ]);
  const off = await setup(manifest, spec('1.1', 'install_scripts: false\n'));
  assert.equal(
    (await resolveTestCommand(off.course, off.lesson, off.dir, config(), process.env, probes(false))).prepare?.at(-1),
    '--ignore-scripts',
  );
  const wrong = await setup(manifest, spec('1.1', 'install_scripts: "yes"\n'));
  await assert.rejects(
    () => resolveTestCommand(wrong.course, wrong.lesson, wrong.dir, config(), process.env, probes(false)),
    /\.codelabgen\/lessons\/1\.1\/spec\.yaml: install_scripts: /,
  );
});

test('python: pytest when importable, else unittest discover', async () => {
  const { course, lesson, dir } = await setup();
  assert.deepEqual(
    (await resolveTestCommand(course, lesson, dir, config({ runtime: 'python' }), process.env, probes(true))).argv,
    ['python3', '-m', 'pytest', '-p', 'no:cacheprovider'],
  );
  assert.deepEqual(
    (await resolveTestCommand(course, lesson, dir, config({ runtime: 'python' }), process.env, probes(false))).argv,
    ['python3', '-m', 'unittest', 'discover'],
  );
});

test("the lesson spec's runtime overrides the course config", async () => {
  const { course, lesson, dir } = await setup({}, spec('1.1', 'runtime: python\n'));
  assert.deepEqual(
    (await resolveTestCommand(course, lesson, dir, config({ runtime: 'node' }), process.env, probes(false))).argv,
    ['python3', '-m', 'unittest', 'discover'],
  );
});

test("test_command: the spec's wins; the config's applies only to lessons on the course runtime", async () => {
  const { course, lesson, dir } = await setup({}, spec('1.1', 'runtime: python\n'));
  const course2 = config({ runtime: 'node', test_command: ['node', 'run.mjs'] });
  assert.deepEqual((await resolveTestCommand(course, lesson, dir, course2, process.env, probes(true))).argv, [
    'python3',
    '-m',
    'pytest',
    '-p',
    'no:cacheprovider',
  ]);
  const same = config({ runtime: 'python', test_command: ['python3', 'check.py'] });
  assert.deepEqual((await resolveTestCommand(course, lesson, dir, same, process.env, probes(true))).argv, [
    'python3',
    'check.py',
  ]);
  const {
    course: c3,
    lesson: l3,
    dir: d3,
  } = await setup({}, spec('1.1', 'runtime: custom\ntest_command: [make, test]\n'));
  assert.deepEqual((await resolveTestCommand(c3, l3, d3, same, process.env, probes(true))).argv, ['make', 'test']);
});

test('custom without a test_command is refused', async () => {
  const { course, lesson, dir } = await setup();
  await assert.rejects(
    () => resolveTestCommand(course, lesson, dir, config({ runtime: 'custom' }), process.env, probes(false)),
    (error: unknown) =>
      error instanceof RefusalError &&
      error.message ===
        'lesson 1.1: runtime custom needs a test_command (an argv list) in .codelabgen/lessons/1.1/spec.yaml or .codelabgen/config.yaml',
  );
});

test('a shell operator in test_command is refused naming the file and the element', async () => {
  const { course, lesson, dir } = await setup(
    {},
    spec('1.1', 'runtime: custom\ntest_command: [npm, ci, "&&", npm, test]\n'),
  );
  await assert.rejects(
    () => resolveTestCommand(course, lesson, dir, config(), process.env, probes(false)),
    (error: unknown) =>
      error instanceof RefusalError &&
      error.message.startsWith(
        '.codelabgen/lessons/1.1/spec.yaml: test_command[2]: "&&" contains the shell operator "&&"',
      ),
  );
  const { course: c2, lesson: l2, dir: d2 } = await setup();
  await assert.rejects(
    () =>
      resolveTestCommand(
        c2,
        l2,
        d2,
        config({ runtime: 'custom', test_command: ['sh', '-c', 'pytest | tee log'] }),
        process.env,
        probes(false),
      ),
    /^RefusalError: \.codelabgen\/config\.yaml: test_command\[2\]: "pytest \| tee log" contains the shell operator "\|"/,
  );
});

test('python-uv: refused when uv is not on PATH; else uv run pytest in the workspace, VIRTUAL_ENV removed', async () => {
  const { course, lesson, dir } = await setup();
  const uvConfig = config({ runtime: 'python-uv' });
  await assert.rejects(
    () => resolveTestCommand(course, lesson, dir, uvConfig, process.env, probes(false)),
    (error: unknown) =>
      error instanceof RefusalError && error.message === 'lesson 1.1: runtime python-uv needs uv, which is not on PATH',
  );
  const env = { ...process.env, VIRTUAL_ENV: '/somewhere/.venv', CODELABGEN_VERIFY_ENV: 'VIRTUAL_ENV' };
  const command = await resolveTestCommand(course, lesson, dir, uvConfig, env, probes(false, ['uv']));
  assert.deepEqual(command.argv, ['uv', 'run', '--no-build', 'pytest', '-p', 'no:cacheprovider', path.basename(dir)]);
  assert.equal(command.cwd, path.dirname(dir));
  assert.equal(command.env.VIRTUAL_ENV, undefined);
});

test('install scripts off (the default) also switches off source builds: uv run --no-build, UV_NO_BUILD and PIP_ONLY_BINARY for every runtime', async () => {
  const uvConfig = config({ runtime: 'python-uv' });
  const off = await setup();
  const uv = await resolveTestCommand(off.course, off.lesson, off.dir, uvConfig, process.env, probes(false, ['uv']));
  assert.deepEqual(uv.argv.slice(0, 4), ['uv', 'run', '--no-build', 'pytest']);
  assert.equal(uv.env.UV_NO_BUILD, '1');
  assert.equal(uv.env.PIP_ONLY_BINARY, ':all:');
  const python = await resolveTestCommand(off.course, off.lesson, off.dir, config(), process.env, probes(true));
  assert.equal(python.env.PIP_ONLY_BINARY, ':all:');
  assert.equal(python.env.UV_NO_BUILD, '1');
  const on = await setup({}, spec('1.1', 'install_scripts: true\n'));
  const built = await resolveTestCommand(on.course, on.lesson, on.dir, uvConfig, process.env, probes(false, ['uv']));
  assert.deepEqual(built.argv.slice(0, 3), ['uv', 'run', 'pytest']);
  assert.equal(built.env.UV_NO_BUILD, undefined);
  assert.equal(built.env.PIP_ONLY_BINARY, undefined);
});

test('uv workspace: the nearest uv.lock or [tool.uv.workspace] up to the course root', async () => {
  const { course, dir } = await setup({ 'pyproject.toml': '[project]\nname = "l"\n' });
  assert.equal(uvWorkspace(course, dir), dir);
  writeFileSync(path.join(course.root, 'pyproject.toml'), '[tool.uv.workspace]\nmembers = ["1-basics/*"]\n');
  assert.equal(uvWorkspace(course, dir), course.root);
  writeFileSync(path.join(path.dirname(dir), 'uv.lock'), '');
  assert.equal(uvWorkspace(course, dir), path.dirname(dir));
});
