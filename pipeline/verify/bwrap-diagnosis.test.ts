// When bwrap cannot build its namespace (Ubuntu 23.10+ and GitHub's ubuntu-latest: AppArmor's
// kernel.apparmor_restrict_unprivileged_userns=1), verify says so and prints the fix: the pure
// diagnosis, then end to end with a stand-in bwrap that fails as the real one does there.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { cli } from '../../cli/testing.ts';
import { diagnoseBwrapFailure } from './bwrap-diagnosis.ts';
import { courseWithLessons } from './fixtures.ts';

const scratch: string[] = [];
after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const UID_MAP = 'bwrap: setting up uid map: Permission denied';
const NO_PERMISSION =
  'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged ' +
  'user namespaces. See <https://deb.li/bubblewrap> or <file:///usr/share/doc/bubblewrap/README.Debian.gz>.';

test('diagnoseBwrapFailure: the namespace refusals name the AppArmor sysctl and a bwrap profile; others are not guessed', () => {
  for (const stderr of [UID_MAP, NO_PERMISSION, 'bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted']) {
    const found = diagnoseBwrapFailure(stderr, null);
    assert.ok(found, stderr);
    assert.match(found.cause, /unprivileged user namespaces are not allowed here/);
    assert.match(found.fixes[0]!, /sudo sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/);
    assert.match(found.fixes[0]!, /AppArmor profile/);
  }
  assert.match(
    diagnoseBwrapFailure(UID_MAP, '1\n')!.cause,
    /^unprivileged user namespaces are restricted by AppArmor \(kernel\.apparmor_restrict_unprivileged_userns=1/,
  );
  assert.match(
    diagnoseBwrapFailure(
      'bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)',
      null,
    )!.fixes[0]!,
    /user\.max_user_namespaces/,
  );
  assert.equal(diagnoseBwrapFailure("bwrap: Can't find source path /nope: No such file or directory", null), null);
  assert.equal(diagnoseBwrapFailure('', null), null);
});

/** A stand-in bwrap that fails as Ubuntu 24.04's does under the AppArmor restriction. */
function restrictedBwrap(message: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-fake-bwrap-'));
  scratch.push(dir);
  const file = path.join(dir, 'bwrap');
  writeFileSync(file, `#!/bin/sh\necho '${message}' >&2\nexit 1\n`, { mode: 0o755 });
  return file;
}

async function nodeCourse(sandbox: string) {
  const made = await courseWithLessons(
    [{ id: '1.1', files: { 'a.test.mjs': "import test from 'node:test';\ntest('passes', () => {});\n" } }],
    `verify:\n  sandbox: ${sandbox}\n`,
  );
  scratch.push(path.dirname(made.root));
  return made;
}

test('sandbox auto on a host that denies bwrap its namespace: the tests run unsandboxed and verify says why, with the fix', {
  timeout: 60_000,
}, async () => {
  const made = await nodeCourse('auto');
  const result = cli(['verify', '1.1', '--course', made.root], { env: { CODELABGEN_BWRAP: restrictedBwrap(UID_MAP) } });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /, sandbox: none\)$/m);
  const lines = result.stderr.trimEnd().split('\n');
  assert.match(
    lines[0]!,
    new RegExp(
      String.raw`^warning: verify\.sandbox is "auto" in \.codelabgen\/config\.yaml and bubblewrap cannot run here ` +
        String.raw`\(bwrap: setting up uid map: Permission denied: unprivileged user namespaces are (not allowed ` +
        'here|restricted by AppArmor)',
    ),
  );
  assert.match(lines[0]!, /lesson tests run WITHOUT the sandbox/);
  assert.match(
    lines[1]!,
    /^hint: allow them for bwrap: sudo sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/,
  );
  assert.ok(
    lines.every((line) => /^(warning|hint): /.test(line)),
    result.stderr,
  );
  const json = cli(['verify', '1.1', '--json', '--course', made.root], {
    env: { CODELABGEN_BWRAP: restrictedBwrap(NO_PERMISSION) },
  });
  assert.equal(JSON.parse(json.stdout).sandbox, 'none');
  assert.match(
    json.stderr,
    /^warning: .*No permissions to create new namespace/m,
    'the warning goes to stderr with --json too',
  );
});

test("sandbox required on such a host: refused (exit 2), naming bwrap's message and the fix; nothing runs", {
  timeout: 60_000,
}, async () => {
  const made = await nodeCourse('required');
  const result = cli(['verify', '1.1', '--course', made.root], { env: { CODELABGEN_BWRAP: restrictedBwrap(UID_MAP) } });
  assert.equal(result.code, 2);
  const lines = result.stderr.trimEnd().split('\n');
  assert.match(
    lines[0]!,
    new RegExp(
      String.raw`^error: verify\.sandbox is "required" in \.codelabgen\/config\.yaml but bubblewrap cannot run here ` +
        String.raw`\(bwrap: setting up uid map: Permission denied: unprivileged user namespaces .*\); let it create its ` +
        String.raw`namespace or change verify\.sandbox$`,
    ),
  );
  assert.match(
    lines[1]!,
    /^hint: allow them for bwrap: sudo sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/,
  );
  assert.equal(lines.filter((line) => line.startsWith('error: ')).length, 1);
  assert.equal(result.stdout, '');
});
