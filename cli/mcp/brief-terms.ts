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

/** `brief <role> [LESSON] [--phase P]` (a refusal of the brief command names itself so) as the prompt a client gets. */
const BRIEF_COMMAND = /(?:codelabgen )?\bbrief ([a-z][a-z-]*)(?: (?!--)([\w.-]+))?(?: --phase ([a-z_]+))?/g;

/** A refusal of `brief` as a prompt's error: the command as the prompt and its arguments, other commands as tool calls. */
export function briefErrorInMcpTerms(text: string): string {
  return inToolTerms(
    text.replace(BRIEF_COMMAND, (_whole, role: string, lesson?: string, phase?: string) => {
      const args = { ...(lesson === undefined ? {} : { lesson }), ...(phase === undefined ? {} : { phase }) };
      return `the prompt ${role}${Object.keys(args).length === 0 ? '' : ` ${JSON.stringify(args)}`}`;
    }),
  );
}
