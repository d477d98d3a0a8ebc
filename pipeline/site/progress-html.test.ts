// The board's HTML: every course string escaped (titles, reasons and notes are untrusted), one
// labelled region per stage, commands shown as they are to be typed, lease countdowns marked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUDGETS, T0, lesson, state, task } from '../protocol/state-fixture.ts';
import { buildBoard, emptyLog } from '../progress/board.ts';
import { renderBoardHtml } from './progress-html.ts';

const HOSTILE = '<img src=x onerror=alert(1)> & "quotes"';
const now = new Date(Date.parse(T0) + 600_000);

function html(): string {
  const s = state(
    [
      lesson('1.1', 'code', { title: HOSTILE, blocked: { reason: `needs <b>${HOSTILE}</b>`, by: 'user', at: T0 } }),
      lesson('1.2', 'spec'),
    ],
    [
      task('t1', '1.2', 'running', {
        role: 'code-author',
        lease_expires_at: new Date(now.getTime() + 90_000).toISOString(),
      }),
    ],
  );
  const board = buildBoard({ state: s, budgets: BUDGETS, log: emptyLog(), drifted: new Set(), now });
  return renderBoardHtml(board, { lesson: (l) => `/lessons/${l.id}-${l.slug}/` });
}

test('course text is escaped everywhere it is shown', () => {
  const page = html();
  assert.doesNotMatch(page, /<img|<b>/);
  assert.match(
    page,
    /<a href="\/lessons\/1\.1-l1-1\/">&lt;img src=x onerror=alert\(1\)&gt; &amp; &quot;quotes&quot;<\/a>/,
  );
  assert.match(page, /<code>codelabgen state unblock 1\.1 --note &quot;your decision&quot;<\/code>/);
});

test('a region per stage, named by its heading, and the lease counting down', () => {
  const page = html();
  for (const stage of ['pending', 'spec', 'code', 'verified', 'readalong', 'notes', 'reviewed', 'done']) {
    assert.match(
      page,
      new RegExp(
        `<section class="pg-column" aria-labelledby="pg-col-${stage}"><h3 id="pg-col-${stage}">${stage} <span class="pg-count">\\d+</span></h3>`,
      ),
    );
  }
  assert.match(
    page,
    new RegExp(
      String.raw`<th scope="row">t1<\/th><td>lesson 1\.2<\/td><td>code-author<\/td><td><span data-age="600">10m ` +
        String.raw`0s<\/span><\/td><td><span data-countdown="90">1m 30s<\/span> left<\/td>`,
    ),
  );
  assert.match(
    page,
    /<li class="pg-phase pg-phase-current" aria-current="step"><span class="pg-phase-name">lessons<\/span>/,
  );
});

test('a failed lesson is red with its cause, the stages done are a progress bar, the cost and a stall are said', () => {
  const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
  const s = state(
    [
      lesson('1.1', 'code', { fix_attempts_used: 1, last_failure: 'expected <3> got 4', updated_at: at(30) }),
      lesson('1.2', 'done', { updated_at: at(20) }),
    ],
    [
      task('t1', '1.1', 'done', {
        result: {
          lesson: '1.1',
          status: 'ok',
          stage: 'code',
          artifacts: [],
          usage: { cost_usd: 1.2, input_tokens: 900 },
        },
      }),
    ],
  );
  s.phase_history.push({ phase: 'lessons', entered_at: at(10), seq: 3 });
  const page = (minutes: number) =>
    renderBoardHtml(
      buildBoard({
        state: s,
        budgets: { ...BUDGETS, cost_usd: 10 },
        log: emptyLog(),
        drifted: new Set(),
        now: new Date(at(minutes)),
      }),
      { lesson: (l) => `/lessons/${l.id}/` },
    );
  const moving = page(31);
  assert.match(
    moving,
    /<li class="pg-card pg-card-failed" data-lesson="1\.1">.*<p class="pg-failure"><strong>verify failed:<\/strong> expected &lt;3&gt; got 4<\/p>/,
  );
  assert.doesNotMatch(moving, /data-lesson="1\.2"[^>]*pg-card-failed|pg-card-failed" data-lesson="1\.2"/);
  // 9 of 14 stage moves in 20 minutes: 5 left take about 11 minutes.
  assert.match(
    moving,
    new RegExp(
      '<div class="pg-progress" role="progressbar" aria-label="Stages done" aria-valuemin="0" ' +
        'aria-valuemax="14" aria-valuenow="9" aria-valuetext="9 of 14 stages done"><span class="pg-progress-done" ' +
        String.raw`style="width: 64%"><\/span><\/div>`,
    ),
  );
  assert.match(moving, /5 stages to go, about 11m 7s left/);
  assert.match(
    moving,
    /cost so far <strong>\$1\.20<\/strong>, 900 tokens \(1 task\) · about \$1\.87 at completion · budget \$10\.00/,
  );
  assert.match(
    page(60),
    /5 stages to go, <strong class="pg-stalled">stalled<\/strong>: nothing moved since 2026-01-01 00:30/,
  );
});

test("a gate's card links to the files to review, or names them when the site has no page for them", () => {
  const s = state([], [], 'gate_sources');
  s.phase_history.push({ phase: 'gate_sources', entered_at: T0, seq: 4 });
  const board = buildBoard({ state: s, budgets: BUDGETS, log: emptyLog(), drifted: new Set(), now });
  const linked = renderBoardHtml(board, { lesson: () => '', artifact: (file) => `/review?f=${file}` });
  assert.match(
    linked,
    new RegExp(
      String.raw`<p class="pg-review"><span class="pg-cmd-label">read<\/span> <a ` +
        String.raw`href="\/review\?f=\.codelabgen\/research\/overview\.md">research overview<\/a> · <a ` +
        String.raw`href="\/review\?f=\.codelabgen\/sources\.jsonl">sources<\/a><\/p>`,
    ),
  );
  assert.match(
    renderBoardHtml(board, { lesson: () => '' }),
    /research overview \(<code>\.codelabgen\/research\/overview\.md<\/code>\)/,
  );
});
