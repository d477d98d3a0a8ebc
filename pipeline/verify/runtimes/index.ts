// Each runtime's module (content-schemas/runtimes.ts lists them): typed by the registry's names, so a
// runtime added there fails the typecheck until its module is named here.
import type { Runtime } from '../../../content-schemas/index.ts';
import type { ResolveCommand } from '../test-command.ts';
import { customCommand } from './custom.ts';
import { nodeCommand } from './node.ts';
import { pythonCommand } from './python.ts';
import { uvCommand } from './python-uv.ts';

export const RUNTIME_COMMANDS: { readonly [name in Runtime]: ResolveCommand } = {
  node: nodeCommand,
  python: pythonCommand,
  'python-uv': uvCommand,
  custom: customCommand,
};
