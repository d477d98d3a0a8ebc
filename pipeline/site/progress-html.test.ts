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
    /<th scope="row">t1<\/th><td>lesson 1\.2<\/td><td>code-author<\/td><td><span data-age="600">10m 0s<\/span><\/td><td><span data-countdown="90">1m 30s<\/span> left<\/td>/,
  );
  assert.match(
    page,
    /<li class="pg-phase pg-phase-current" aria-current="step"><span class="pg-phase-name">lessons<\/span>/,
  );
});
