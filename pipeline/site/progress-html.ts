// The /progress/ board as HTML: the page (site/routes/progress.astro) shows it, and site dev's live
// updates (pipeline/site/progress-live.ts) send it again after every change, so one renderer makes
// both. Pure; every course string is escaped (course text is not trusted).
import type { Board, BoardCard, BoardPhase, BoardTask, HumanItem } from '../progress/board.ts';
import { clockText, formatDuration } from '../report/text.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Where a card links: its lesson page; a gate's files to review: their page (none: shown as paths). */
export interface BoardLinks {
  lesson(lesson: { id: string; slug: string }): string;
  artifact?(path: string): string | null;
}

function feedItem(line: Board['feed'][number]): string {
  const label = line.lesson ? `${line.lesson} ${line.label}` : line.label;
  return (
    `<li><span class="pg-when">${esc(clockText(line.at))}</span> ` +
    `<span class="pg-label">${esc(label)}</span> ${esc(line.text)}</li>`
  );
}

function section(id: string, title: string, body: string, extra = ''): string {
  return `<section class="pg-section" aria-labelledby="pg-${id}"${extra}><h2 id="pg-${id}">${title}</h2>${body}</section>`;
}

function reviewLinks(item: HumanItem, links: BoardLinks): string {
  if (!item.review || item.review.length === 0) return '';
  const each = item.review.map((file) => {
    const href = links.artifact?.(file.path) ?? null;
    return href === null
      ? `${esc(file.label)} (<code>${esc(file.path)}</code>)`
      : `<a href="${esc(href)}">${esc(file.label)}</a>`;
  });
  return `<p class="pg-review"><span class="pg-cmd-label">read</span> ${each.join(' · ')}</p>`;
}

function humanItem(item: HumanItem, links: BoardLinks): string {
  const tool = `${item.tool.name} ${JSON.stringify(item.tool.arguments)}`;
  return (
    `<li class="pg-human pg-human-${item.kind}"><p>${esc(item.text)}</p>${reviewLinks(item, links)}<p ` +
    `class="pg-cmd"><span class="pg-cmd-label">run</span> <code>${esc(item.command)}</code></p><p ` +
    `class="pg-cmd"><span class="pg-cmd-label">MCP</span> <code>${esc(tool)}</code></p></li>`
  );
}

function phaseItem(phase: BoardPhase): string {
  const approval = phase.approval
    ? `<span class="pg-approval">approved ${esc(clockText(phase.approval.at))}` +
      `${phase.approval.command ? ` by <code>${esc(phase.approval.command)}</code>` : ''}</span>`
    : phase.gate && phase.status === 'current'
      ? '<span class="pg-approval">waiting for approval</span>'
      : '';
  const when =
    phase.entered_at && phase.status !== 'ahead'
      ? `<span class="pg-when">${esc(clockText(phase.entered_at))}</span>`
      : '';
  return (
    `<li class="pg-phase pg-phase-${phase.status}${phase.gate ? ' pg-gate' : ''}"` +
    `${phase.status === 'current' ? ' aria-current="step"' : ''}><span class="pg-phase-name">${esc(phase.phase)}` +
    `${phase.gate ? ' <span class="pg-gate-mark">(gate)</span>' : ''}</span>` +
    `${phase.status === 'current' ? ' <span class="pg-now">now</span>' : ''}${when}${approval}</li>`
  );
}

const countdown = (seconds: number) => formatDuration(seconds * 1000);

function card(c: BoardCard, links: BoardLinks): string {
  const flags = [
    c.blocked
      ? `<li class="pg-flag pg-flag-blocked" title="${esc(c.blocked.reason)}">blocked (${c.blocked.by})</li>`
      : '',
    c.stale !== null ? `<li class="pg-flag pg-flag-stale" title="${esc(c.stale)}">stale</li>` : '',
    c.drifted ? '<li class="pg-flag pg-flag-drifted">drifted</li>' : '',
  ].join('');
  const budget = (label: string, b: { used: number; budget: number }) =>
    `<span class="pg-budget${b.used >= b.budget && b.used > 0 ? ' pg-budget-out' : ''}">${label} ${b.used}/${b.budget}</span>`;
  const task = c.task
    ? `<p class="pg-task${c.task.interrupted ? ' pg-task-interrupted' : ''}">${esc(c.task.role)} · <span ` +
      `data-age="${c.task.age_seconds}">${countdown(c.task.age_seconds)}</span>` +
      `${c.task.interrupted ? ' · interrupted' : ''}</p>`
    : '';
  const title = `<a href="${esc(links.lesson(c))}">${esc(c.title)}</a>`;
  const failed = c.failed === null ? '' : `<p class="pg-failure"><strong>verify failed:</strong> ${esc(c.failed)}</p>`;
  return (
    `<li class="pg-card${c.failed === null ? '' : ' pg-card-failed'}" data-lesson="${esc(c.id)}"><p ` +
    `class="pg-card-head"><span class="pg-id">${esc(c.id)}</span> ${title}</p><p class="pg-module">module ` +
    `${esc(c.module.id)} · ${esc(c.module.title)}</p>${flags ? `<ul class="pg-flags">${flags}</ul>` : ''}` +
    `${failed}<p class="pg-budgets">${budget('fix', c.fix)} ${budget('review', c.review)}</p>${task}</li>`
  );
}

function taskRow(task: BoardTask, interrupted: boolean): string {
  const on = task.lesson === null ? `phase ${esc(task.phase ?? '?')}` : `lesson ${esc(task.lesson)}`;
  const lease =
    task.lease_seconds === null
      ? 'no lease'
      : interrupted
        ? `ran out ${countdown(task.lease_seconds)} ago`
        : `<span data-countdown="${task.lease_seconds}">${countdown(task.lease_seconds)}</span> left`;
  return (
    `<tr><th scope="row">${esc(task.id)}</th><td>${on}</td><td>${esc(task.role)}</td><td><span data-age="` +
    `${task.age_seconds}">${countdown(task.age_seconds)}</span></td><td>${lease}</td>` +
    `${interrupted ? `<td>${esc(task.hint)}</td>` : ''}</tr>`
  );
}

function taskTable(tasks: BoardTask[], interrupted: boolean): string {
  if (tasks.length === 0) return '<p class="muted">none</p>';
  const head =
    '<tr><th scope="col">task</th><th scope="col">on</th><th scope="col">role</th><th scope="col">age</th><th ' +
    `scope="col">lease</th>${interrupted ? '<th scope="col">what to do</th>' : ''}</tr>`;
  return `<div class="pg-table"><table><thead>${head}</thead><tbody>${tasks.map((t) => taskRow(t, interrupted)).join('')}</tbody></table></div>`;
}

function throughput(board: Board): string {
  const t = board.throughput;
  const rate =
    t.done_per_hour === null
      ? 'no lesson done yet'
      : `${t.done_per_hour.toFixed(t.done_per_hour < 10 ? 1 : 0)} lessons done per hour`;
  const eta = t.stalled
    ? `<strong class="pg-stalled">stalled</strong>: nothing moved since ${esc(clockText(t.last_moved_at ?? board.now))}`
    : t.stages_left === 0 && t.stages_total > 0
      ? 'nothing left'
      : t.eta_seconds === null
        ? 'no estimate yet'
        : `about ${formatDuration(t.eta_seconds * 1000)} left`;
  const l = board.lessons;
  const flags = [
    l.blocked ? `${l.blocked} blocked` : '',
    l.stale ? `${l.stale} stale` : '',
    l.drifted ? `${l.drifted} drifted` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const percent = t.stages_total === 0 ? 0 : Math.round((t.stages_done / t.stages_total) * 100);
  const values = `aria-valuemin="0" aria-valuemax="${t.stages_total}" aria-valuenow="${t.stages_done}"`;
  const bar =
    `<div class="pg-progress" role="progressbar" aria-label="Stages done" ${values} aria-valuetext="${t.stages_done} of ${t.stages_total} stages done">` +
    `<span class="pg-progress-done" style="width: ${percent}%"></span></div>`;
  return (
    `<p class="pg-summary"><strong>${l.done} of ${plural(l.total, 'lesson')} done</strong>` +
    `${flags ? ` (${flags})` : ''} · ${rate} · ${plural(t.stages_left, 'stage')} to go, ${eta}` +
    `${t.since ? ` <span class="muted">(since the lessons phase began, ${esc(clockText(t.since))})</span>` : ''}` +
    `</p>${bar}<p class="pg-progress-text">${t.stages_done} of ${plural(t.stages_total, 'stage')} done (` +
    `${percent}%)</p>${costLine(board)}`
  );
}

const usd = (value: number) => `$${value.toFixed(2)}`;
const count = (value: number) => Math.round(value).toLocaleString('en-US');

function costLine(board: Board): string {
  const c = board.cost;
  if (c.spent.tasks_with_usage === 0 && c.budget_usd === null && c.budget_tokens === null)
    return '<p class="pg-cost muted">cost: no task has recorded a usage yet</p>';
  const budgets = [
    c.budget_usd === null ? '' : `budget ${usd(c.budget_usd)}`,
    c.budget_tokens === null ? '' : `budget ${count(c.budget_tokens)} tokens`,
  ].filter(Boolean);
  const projected = c.projected_usd === null ? '' : ` · about ${usd(c.projected_usd)} at completion`;
  const spent = `<strong>${usd(c.spent.cost_usd)}</strong>, ${count(c.spent.tokens)} tokens (${plural(c.spent.tasks_with_usage, 'task')})`;
  return `<p class="pg-cost">cost so far ${spent}${projected}${budgets.length > 0 ? ` · ${budgets.join(', ')}` : ''}</p>`;
}

/** The board's HTML (the inside of the page's live region). */
export function renderBoardHtml(board: Board, links: BoardLinks): string {
  const human =
    board.needs_human.length === 0
      ? '<p class="muted">none</p>'
      : `<ul class="pg-humans">${board.needs_human.map((item) => humanItem(item, links)).join('')}</ul>`;
  const columns = board.columns
    .map(
      (col) =>
        `<section class="pg-column" aria-labelledby="pg-col-${col.stage}"><h3 id="pg-col-${col.stage}">` +
        `${col.stage} <span class="pg-count">${col.cards.length}</span></h3>` +
        `${col.cards.length === 0 ? '<p class="muted">none</p>' : `<ul class="pg-cards">${col.cards.map((c) => card(c, links)).join('')}</ul>`}` +
        '</section>',
    )
    .join('');
  const feed =
    board.feed.length === 0
      ? '<p class="muted">no events yet</p>'
      : `<ol class="pg-feed">${board.feed.map(feedItem).join('')}</ol>`;
  return [
    `<p class="pg-status">phase <strong>${esc(board.phase)}</strong> · event ${board.seq} · as of <time ` +
      `datetime="${esc(board.now)}">${esc(clockText(board.now))}</time></p>`,
    section('human', `Needs a human <span class="pg-count">${board.needs_human.length}</span>`, human),
    throughput(board),
    section('phases', 'Phases', `<ol class="pg-phases">${board.phases.map(phaseItem).join('')}</ol>`),
    section('board', 'Lessons by stage', `<div class="pg-columns">${columns}</div>`),
    section(
      'running',
      `Running tasks <span class="pg-count">${board.running.length}</span>`,
      taskTable(board.running, false),
    ),
    section(
      'interrupted',
      `Interrupted tasks <span class="pg-count">${board.interrupted.length}</span>`,
      taskTable(board.interrupted, true),
    ),
    section('feed', `Last ${plural(board.feed.length, 'event')}`, feed),
  ].join('');
}
