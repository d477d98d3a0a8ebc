// Site build benchmark: a generated 50-lesson course (readalong, notes, 3 code files, 1 diagram
// each) built cold (empty diagram cache) and warm, with page weights. Usage: node bench/site-bench.ts [N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from '../cli/testing.ts';
import { generateCourse } from './generate-course.ts';

const lessons = Number(process.argv[2] ?? 50);
const work = mkdtempSync(path.join(os.tmpdir(), 'codelabgen-site-bench-'));
const root = path.join(work, 'course');
await generateCourse(root, { lessons, perModule: 10 });
const env = { ...process.env, CODELABGEN_DIAGRAM_CACHE: path.join(work, 'cache'), NO_COLOR: '1' };
for (const label of ['cold', 'warm']) {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [CLI, 'site', 'build', '--course', root, '--out', path.join(work, 'out'), '--stats', '--base', '/bench/'],
    { env, encoding: 'utf8' },
  );
  const ms = Date.now() - started;
  if (result.status !== 0) throw new Error(`${label} build failed: ${result.stderr}`);
  const lines = result.stdout.split('\n');
  const lessonsRows = lines.filter((l) => l.startsWith('lessons/'));
  console.log(
    `${label}: ${(ms / 1000).toFixed(1)} s wall; ${lines.find((l) => l.startsWith('diagrams:'))}; ${lines.find((l) => l.startsWith('built'))}`,
  );
  if (label === 'cold')
    console.log(
      [
        'page weights (first lesson, home, report):',
        lessonsRows[0],
        lines.find((l) => l.startsWith('index.html')),
        lines.find((l) => l.startsWith('report/')),
      ].join('\n  '),
    );
}
if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
