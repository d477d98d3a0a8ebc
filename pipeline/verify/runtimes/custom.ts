// The custom runtime: the spec's or config.yaml's test_command, which it requires.
import { ARTIFACTS } from '../../course/course.ts';
import { refuse } from '../../course/errors.ts';
import { plainCommand, type ResolveCommand } from '../test-command.ts';

export const customCommand: ResolveCommand = ({ given, lesson, lessonDir, env }) => {
  if (!given)
    refuse(
      `lesson ${lesson.id}: runtime custom needs a test_command (an argv list) in ${ARTIFACTS.lessonSpec(lesson.id)} or ${ARTIFACTS.config}`,
    );
  return plainCommand('custom', given, lessonDir, env);
};
