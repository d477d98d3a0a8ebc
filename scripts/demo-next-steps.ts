// What the demo prints at its end: where the site is and the commands to look at it. Its own module
// so a test can check that every command it advertises is one the CLI accepts.
import path from 'node:path';

export function nextSteps(course: string, out: string, seconds: number, cwd = process.cwd()): string[] {
  const courseArg = path.relative(cwd, course) || '.';
  const outArg = path.relative(cwd, out) || out;
  return [
    `done in ${seconds.toFixed(1)} s: site in ${outArg}`,
    `preview the built site:      npx codelabgen site preview --course ${courseArg} --out ${outArg}`,
    `live preview while you edit: npx codelabgen site dev --course ${courseArg} (every lesson, reloads on changes)`,
  ];
}
