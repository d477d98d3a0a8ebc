// A worker's brief (`codelabgen brief`, pipeline/brief/) as the MCP prompts serve it: every
// `codelabgen <command>` written as its tool call, and the course named as the calls' `course`
// argument instead of `--course`. Kept apart from prompts.ts so tests can import it.
import { courseSentence } from '../../pipeline/index.ts';
import { inToolTerms } from './tool-terms.ts';

export function inMcpTerms(text: string, root: string): string {
  return inToolTerms(
    text.replace(
      courseSentence(root),
      `The course folder is ${root}; give "course": ${JSON.stringify(root)} to every tool call below.`,
    ),
  );
}
