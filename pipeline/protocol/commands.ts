// The command table of the protocol: each state-changing command and the pure decision behind it,
// `(state, request, facts) → EventDraft` or a RefusalError. The CLI calls these inside commit();
// another front end (an MCP server) can reuse them. The facts come from artifacts/facts.ts.
import { decideLog } from './log.ts';
import { decidePhase } from './phases.ts';
import { decideRegister } from './register.ts';
import { decideSiteBuild } from './site-build.ts';
import { decideBlock, decideFail, decideRework, decideSet, decideStale, decideUnblock } from './stages.ts';
import { decideStart, decideTaskFinish, decideTaskHeartbeat, decideTaskReset } from './tasks.ts';
import { decideVerdict } from './verdict.ts';

export const DECISIONS = {
  'state set': decideSet,
  'state rework': decideRework,
  'state fail': decideFail,
  'state block': decideBlock,
  'state unblock': decideUnblock,
  'state stale': decideStale,
  'state phase': decidePhase,
  'state log': decideLog,
  'state task start': decideStart,
  'state task heartbeat': decideTaskHeartbeat,
  'state task done': decideTaskFinish,
  'state task fail': decideTaskFinish,
  'state task reset': decideTaskReset,
  register: decideRegister,
  verify: decideVerdict,
  'site build': decideSiteBuild,
} as const;

export type DecidedCommand = keyof typeof DECISIONS;
