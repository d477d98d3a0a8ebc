// report.md: the markdown rendering of a Report (report.json's shape): what needs a human first,
// then the numbers, phases, lessons and each lesson's story (smooth lessons in one line). Pure.
import type { Report, ReportLesson, ReportStoryEntry } from '../../content-schemas/index.ts';
import { costLines } from './cost-text.ts';
import { clockText, codeBlockLine, formatDuration, markdownText, percent, testsText } from './text.ts';

export { formatDuration } from './text.ts';

/** A table cell: one line of escaped text (pipes included). */
const cell = markdownText;

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
}

function storyLines(entry: ReportStoryEntry): string[] {
  const lines = [`- ${clockText(entry.at)} · ${markdownText(entry.text)}`];
  if (entry.details.length > 0)
    lines.push(
      '',
      '  ```text',
      ...entry.details.flatMap((line) => line.split(/\r\n|[\r\n]/)).map((line) => `  ${codeBlockLine(line)}`),
      '  ```',
      '',
    );
  return lines;
}

function numbers(report: Report): string[] {
  const t = report.totals;
  const rows = [
    ['wall time', formatDuration(t.wall_ms)],
    ['lessons', `${t.lessons} (${t.done} done, ${t.blocked} blocked, ${t.stale} stale)`],
    ['tests', `${t.tests} (last passing run of each lesson)`],
    [
      'verification runs',
      `${t.verify_runs} (${t.verify_passed} passed, pass rate ${percent(t.verify_pass_rate)} of the runs with a verdict)`,
    ],
    ['fix attempts', String(t.fix_attempts)],
    ['review rounds', String(t.review_rounds)],
    ['course reopened', t.reopens === 0 ? 'never' : t.reopens === 1 ? 'once' : `${t.reopens} times`],
    ['rework rate', `${percent(t.rework_rate)} (${t.lessons_reworked} of ${t.lessons} lessons moved back)`],
    ['tasks', `${t.tasks} (${t.phase_tasks} phase tasks)`],
  ];
  return table(['measure', 'value'], rows);
}

function lessonRow(l: ReportLesson): string[] {
  const flags = [l.blocked ? 'blocked' : '', l.stale ? 'stale' : ''].filter(Boolean).join(', ');
  const rounds = `${l.review_rounds}${l.review_rounds_granted > 0 ? ` (${l.review_rounds_granted} granted)` : ''}`;
  return [
    l.id,
    l.title,
    l.stage,
    l.tests ? testsText(l.tests) : '-',
    `${l.verify.runs} (${l.verify.passed} passed${l.verify.read_only ? `, ${l.verify.read_only} read-only` : ''})`,
    String(l.fix_attempts),
    rounds,
    formatDuration(l.wall_ms),
    flags,
  ];
}

function stories(report: Report): string[] {
  const lines: string[] = [];
  const smooth = report.lessons.filter((l) => l.smooth);
  if (smooth.length > 0) lines.push('### Went smoothly', '', ...smooth.map((l) => `- ${markdownText(l.summary)}`), '');
  for (const lesson of report.lessons.filter((l) => !l.smooth)) {
    lines.push(
      `### ${lesson.id} ${markdownText(lesson.title)}`,
      '',
      markdownText(lesson.summary),
      '',
      ...lesson.story.flatMap(storyLines),
      '',
    );
  }
  if (report.course_story.length > 0)
    lines.push('### Course events', '', ...report.course_story.flatMap(storyLines), '');
  return lines.length > 0 ? lines : ['No lessons registered.', ''];
}

export function renderReport(report: Report): string {
  const lines = [
    `# Report: ${markdownText(report.course.title)}`,
    '',
    `Up to event ${report.last_seq} (${clockText(report.generated_at)}), phase \`${report.phase}\`.`,
    '',
    '## What needs a human',
    '',
    ...(report.needs_human.length === 0
      ? ['Nothing open: no lesson blocked, no drift, stale mark, open failed task or interrupted task.']
      : report.needs_human.map((item) => `- **${item.kind}** ${markdownText(item.text)}`)),
    '',
    '## Decisions',
    '',
    ...((report.decisions ?? []).length === 0
      ? ["None: no lesson was unblocked, no decision logged as the user's, no reopen."]
      : (report.decisions ?? []).map(
          (item) => `- ${clockText(item.at)} **${item.kind}** by ${markdownText(item.by)}: ${markdownText(item.text)}`,
        )),
    '',
    '## Numbers',
    '',
    ...numbers(report),
    '',
    '## Cost',
    '',
    ...costLines(report),
    '',
    '## Phases',
    '',
    ...table(
      ['phase', 'started', 'ended', 'duration', 'approved'],
      report.phases.map((p) => [
        p.reopened_from ? `${p.phase} (reopened from ${p.reopened_from})` : p.phase,
        clockText(p.started_at),
        p.ended_at ? clockText(p.ended_at) : '(current)',
        formatDuration(p.duration_ms),
        p.approved ? 'yes' : '',
      ]),
    ),
    '',
    '## Lessons',
    '',
    ...table(
      ['lesson', 'title', 'stage', 'tests', 'verify runs', 'fix attempts', 'review rounds', 'wall time', 'flags'],
      report.lessons.map(lessonRow),
    ),
    '',
    '## Stories',
    '',
    ...stories(report),
    '## Tasks by role',
    '',
  ];
  if (report.tasks.length === 0) lines.push('No tasks recorded.');
  else
    lines.push(
      ...table(
        ['role', 'tasks', 'done', 'failed', 'reset', 'running', 'total', 'mean', 'longest'],
        report.tasks.map((r) => [
          r.role,
          String(r.count),
          String(r.done),
          String(r.failed),
          String(r.reset),
          String(r.running),
          formatDuration(r.total_ms),
          formatDuration(r.mean_ms),
          formatDuration(r.max_ms),
        ]),
      ),
    );
  lines.push('', '## Phase tasks by phase', '');
  if (report.tasks_by_phase.length === 0) lines.push('No phase tasks recorded.');
  else
    lines.push(
      ...table(
        ['phase', 'roles', 'tasks', 'done', 'failed', 'reset', 'running', 'total'],
        report.tasks_by_phase.map((p) => [
          p.phase,
          p.roles.join(', '),
          String(p.count),
          String(p.done),
          String(p.failed),
          String(p.reset),
          String(p.running),
          formatDuration(p.total_ms),
        ]),
      ),
    );
  lines.push('', '## Logged facts', '');
  if (report.facts.length === 0) lines.push('No facts logged.', '');
  for (const fact of report.facts) {
    lines.push(`### ${markdownText(fact.kind)} (${fact.count})`, '');
    for (const entry of fact.entries)
      lines.push(
        `- ${clockText(entry.at)}${entry.lesson ? ` lesson ${entry.lesson}` : ''}: ${markdownText(
          Object.entries(entry.data)
            .map(([k, v]) => `${k}=${v}`)
            .join(', '),
        )}`,
      );
    lines.push('');
  }
  lines.push(
    '## Site build',
    '',
    report.site_build
      ? `Last publish build ${clockText(report.site_build.at)}: ${report.site_build.pages} pages, ${report.site_build.lessons} lessons.`
      : 'No publish build recorded.',
    '',
  );
  return lines.join('\n');
}
