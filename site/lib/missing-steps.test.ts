// The "missing:" line of a drafts lesson page: what the lesson lacks to be published, consistent with
// its recorded runs and the course's site.publish rule (a hand author's verified lesson lacks nothing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { missingSteps } from './missing-steps.ts';

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
