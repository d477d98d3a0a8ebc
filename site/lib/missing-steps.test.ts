// The "missing:" line of a drafts lesson page: what the lesson lacks to be published, consistent with
// its recorded runs and the course's site.publish rule (a hand author's verified lesson lacks nothing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STAGES } from '../../content-schemas/index.ts';
import { missingSteps, needsLastRun } from './missing-steps.ts';

test('missing steps by publish rule, stage and last run', () => {
  const cases: [Parameters<typeof missingSteps>, string[]][] = [
    // A hand author: verify --all passed, no stage moves.
    [['pending', 'verified', true], []],
    [['pending', 'verified', false], ['verification']],
    [['pending', 'verified', null], ['verification']],
    [['readalong', 'verified', null], []],
    [['pending', 'all', null], []],
    // The agent protocol: the stages ahead; a passing run is the verification already.
    [
      ['pending', 'done', true],
      ['spec', 'code', 'readalong', 'notes', 'review'],
    ],
    [
      ['code', 'done', false],
      ['verification', 'readalong', 'notes', 'review'],
    ],
    [
      ['verified', 'done', null],
      ['readalong', 'notes', 'review'],
    ],
    [['reviewed', 'done', true], []],
    [
      [null, 'done', null],
      ['spec', 'code', 'verification', 'readalong', 'notes', 'review'],
    ],
  ];
  for (const [args, expected] of cases) assert.deepEqual(missingSteps(...args), expected, JSON.stringify(args));
});

test('the last run matters only where needsLastRun says: every stage, rule and run gives the same steps without it elsewhere', () => {
  for (const stage of [null, ...STAGES])
    for (const publish of ['all', 'verified', 'done'] as const)
      for (const run of [true, false, null])
        if (!needsLastRun(stage, publish))
          assert.deepEqual(
            missingSteps(stage, publish, null),
            missingSteps(stage, publish, run),
            `${stage} ${publish} ${run}`,
          );
  assert.equal(needsLastRun('code', 'verified'), true);
  assert.equal(needsLastRun('done', 'done'), false);
});
