// report.md's "Cost" section: the report's cost (pipeline/report/cost.ts) as tables. Pure.
import type { Report, ReportUsage } from '../../content-schemas/index.ts';
import { formatDuration, markdownText, percent } from './text.ts';

export const usdText = (value: number) => `$${value.toFixed(2)}`;
export const tokensText = (value: number) => Math.round(value).toLocaleString('en-US');

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(markdownText).join(' | ')} |`),
  ];
}

const usageRow = (label: string, usage: ReportUsage) => [
  label,
  `${usage.tasks_with_usage}/${usage.tasks}`,
  tokensText(usage.input_tokens),
  tokensText(usage.output_tokens),
  tokensText(usage.cache_read_tokens),
  tokensText(usage.cache_write_tokens),
  usdText(usage.cost_usd),
  formatDuration(usage.seconds * 1000),
];
const header = (per: string) => [
  per,
  'tasks with usage',
  'input',
  'output',
  'cache read',
  'cache write',
  'cost',
  'worker time',
];

/** The lines of "## Cost" (without its heading). */
export function costLines(report: Report): string[] {
  const cost = report.cost;
  if (!cost || cost.tasks_with_usage === 0)
    return ['No task recorded a usage (a worker status may carry `usage`: docs/protocol.md, "What a worker returns").'];
  const done =
    cost.cost_per_done_lesson_usd === null
      ? 'no lesson done yet'
      : `${usdText(cost.cost_per_done_lesson_usd)} per done lesson`;
  const total = `${usdText(cost.cost_usd)} and ${tokensText(cost.tokens)} tokens in all`;
  const recorded = `(${cost.tasks_with_usage} of ${cost.tasks} tasks recorded a usage)`;
  const rework = `${usdText(cost.rework.cost_usd)}, ${percent(cost.rework.share)}`;
  const fixing = `${usdText(cost.failed_verify.cost_usd)}, ${percent(cost.failed_verify.share)}`;
  return [
    `${total} ${recorded}; cache hits ${percent(cost.cache_hit_rate)} of the input; ${done}.`,
    `Rework (lessons back at a stage they had passed): ${rework}; fixing failed verifications: ${fixing}.`,
    '',
    '### Per phase',
    '',
    ...table(
      header('phase'),
      cost.by_phase.map((row) => usageRow(row.phase, row)),
    ),
    '',
    '### Per role',
    '',
    ...table(
      header('role'),
      cost.by_role.map((row) => usageRow(row.role, row)),
    ),
    '',
    '### Per lesson',
    '',
    ...(cost.by_lesson.length === 0
      ? ['No lesson tasks.']
      : table(
          header('lesson'),
          cost.by_lesson.map((row) => usageRow(row.lesson, row)),
        )),
  ];
}
