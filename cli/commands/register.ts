// codelabgen register [--allow-drop]: curriculum lessons into state (pending) and their folders.
import {
  commitChange,
  type CourseWrite,
  curriculumLessons,
  decideRegister,
  loadState,
  missingLessonFolders,
  readCurriculum,
  writeCourseFiles,
} from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { approvalOf } from './lesson-change.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const course = courseOf(ctx);
  const lessons = curriculumLessons(course, readCurriculum(course));
  const allowDrop = ctx.flag('allow-drop');
  const loaded = await loadState(course, ctx.commandLine);
  reportNotices(ctx, loaded.notices);
  let plan = decideRegister(loaded.state, lessons, allowDrop);
  let seq: number | null = null;
  // The lessons' docs/ folders are made in the same change as the event (all or nothing).
  const folders = (): { writes: CourseWrite[]; created: string[] } => {
    const missing = missingLessonFolders(course, lessons);
    return { writes: missing.folders.map((folder) => ({ path: folder, folder: true })), created: missing.created };
  };
  let created: string[];
  if (!plan.unchanged) {
    let planned = folders();
    const committed = await commitChange(course, { command: ctx.commandLine, what: 'register' }, (state) => {
      plan = decideRegister(state, lessons, allowDrop);
      planned = folders();
      // Dropping lessons is the user's decision: record how it came.
      const draft =
        plan.draft.kind === 'lessons.register' && plan.draft.removed.length > 0
          ? { ...plan.draft, approval: approvalOf(ctx) }
          : plan.draft;
      return { draft, writes: planned.writes };
    });
    reportNotices(ctx, committed.notices);
    seq = committed.event.seq;
    created = planned.created;
  } else {
    const planned = folders();
    await writeCourseFiles(course, planned.writes, { command: ctx.commandLine, what: 'register' });
    created = planned.created;
  }
  const summary = {
    seq,
    lessons: lessons.length,
    added: plan.added,
    updated: plan.updated,
    removed: plan.removed,
    created_dirs: created,
  };
  if (ctx.flag('json')) ctx.out.json(summary);
  else {
    ctx.out.print(
      `registered ${lessons.length} lessons: ${plan.added.length} added, ${plan.updated.length} updated, ` +
        `${plan.removed.length} removed${seq === null ? ' (state unchanged)' : ` (seq ${seq})`}`,
    );
    if (created.length > 0) ctx.out.print(`created ${created.length} lesson folder${created.length === 1 ? '' : 's'}`);
  }
  return EXIT.ok;
}
