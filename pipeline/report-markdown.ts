// report.md: the markdown rendering of a Report (report.json's shape). Pure.
import type { Report, ReportLesson } from '../content-schemas/index.ts';

export function formatDuration(ms: number | null): string {
  if (ms === null) return '-';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours}h ${minutes % 60}m` : `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** A table cell: pipes escaped, newlines flattened. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

function table(header: string[], rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)];
}

function tests(lesson: ReportLesson): string {
  const t = lesson.verify.last_tests;
  return t ? `${t.passed}/${t.total} passed${t.failed > 0 ? `, ${t.failed} failed` : ''}` : '-';
}

function lessonHistory(lesson: ReportLesson): string[] {
  const lines: string[] = [];
  for (const failure of lesson.failures) lines.push(`- ${lesson.id} failure (${failure.via}${failure.run ? `, run ${failure.run}` : ''}) ${failure.at}: ${failure.note}${failure.blocked ? ' (blocked)' : ''}`);
  for (const block of lesson.blocks) lines.push(`- ${lesson.id} blocked (${block.by}) ${block.at}${block.unblocked_at ? ` until ${block.unblocked_at}` : ', still blocked'}: ${block.reason}`);
  for (const mark of lesson.stale_marks) lines.push(`- ${lesson.id} stale ${mark.at}${mark.cleared_at ? ` until ${mark.cleared_at}` : ', still stale'}: ${mark.reason}`);
  return lines.map((line) => line.replace(/[\r\n]+/g, ' '));
}

export function renderReport(report: Report): string {
  const t = report.totals;
  const lines = [
    `# Report: ${report.course.title}`,
    '',
    `Generated ${report.generated_at} at phase \`${report.phase}\` (event ${report.last_seq}).`,
    '',
    `${t.lessons} lessons, ${t.done} done, ${t.blocked} blocked, ${t.stale} stale; ${t.fix_attempts} fix attempts, ${t.review_rounds} review rounds, ${t.verify_runs} verify runs, ${t.tasks} tasks.`,
    '',
    '## Phases',
    '',
    ...table(['phase', 'started', 'ended', 'duration', 'approved'], report.phases.map((p) => [p.phase, p.started_at, p.ended_at ?? '(current)', formatDuration(p.duration_ms), p.approved ? 'yes' : ''])),
    '',
    '## Lessons',
    '',
    ...table(
      ['lesson', 'title', 'stage', 'fix attempts', 'review rounds', 'verify runs', 'last tests', 'pending → done', 'flags'],
      report.lessons.map((l) => [l.id, l.title, l.stage, String(l.fix_attempts), String(l.review_rounds), `${l.verify.runs} (${l.verify.passed} passed)`, tests(l), formatDuration(l.pending_to_done_ms), [l.blocked ? 'blocked' : '', l.stale ? 'stale' : ''].filter(Boolean).join(', ')]),
    ),
  ];
  const history = report.lessons.flatMap(lessonHistory);
  if (history.length > 0) lines.push('', '### Failures, blocks and stale marks', '', ...history);
  lines.push('', '## Tasks by role', '');
  if (report.tasks.length === 0) lines.push('No tasks recorded.');
  else lines.push(...table(['role', 'tasks', 'done', 'failed', 'reset', 'running', 'total', 'mean', 'longest'], report.tasks.map((r) => [r.role, String(r.count), String(r.done), String(r.failed), String(r.reset), String(r.running), formatDuration(r.total_ms), formatDuration(r.mean_ms), formatDuration(r.max_ms)])));
  lines.push('', '## Logged facts', '');
  if (report.facts.length === 0) lines.push('No facts logged.');
  for (const fact of report.facts) {
    lines.push(`### ${fact.kind} (${fact.count})`, '');
    for (const entry of fact.entries) lines.push(`- ${entry.at}${entry.lesson ? ` lesson ${entry.lesson}` : ''}: ${Object.entries(entry.data).map(([k, v]) => `${k}=${v}`).join(', ')}`.replace(/[\r\n]+/g, ' '));
    lines.push('');
  }
  lines.push('## Site build', '', report.site_build ? `Last publish build ${report.site_build.at}: ${report.site_build.pages} pages, ${report.site_build.lessons} lessons.` : 'No publish build recorded.', '');
  return lines.join('\n');
}
