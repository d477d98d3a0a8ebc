// The server's resources: what agents read often (state, next, stages, conventions, schemas), one
// lesson, a lesson's verify run and the report; each is a command's answer or a file of the course.
import path from 'node:path';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_DATA_FILE_BYTES, SCHEMA_NAMES, UnreadableFileError } from '../../content-schemas/index.ts';
import { ARTIFACTS, CONVENTION_TOPICS, getOwn, OutsideError, readFileInside } from '../../pipeline/index.ts';
import { printable } from '../../pipeline/state-commands.ts';
import { commandFailure, resourceNotFound } from './resource-errors.ts';
import { commandNamed, type ServerContext } from './server-context.ts';
import { inToolTermsDeep, withNextCall } from './tool-results.ts';
import { inToolTerms } from './tool-terms.ts';

/** What the server's resources are, for subscriptions and completions. */
export interface ResourceIndex {
  /**
   * Whether a resource could be at `uri`: a resource's URI, or one of a lesson's or a run's (a lesson
   * registered later is one too). The conventions and schema templates add no URI: each of theirs is a resource.
   */
  serves(uri: string): boolean;
  /** Each resource template's URI template and its variables (`codelabgen://lesson/{id}`: id). */
  templates: ReadonlyMap<string, readonly string[]>;
}

/** Serves the resources and resource templates on `ctx.server`. */
export function registerResources(ctx: ServerContext): ResourceIndex {
  const { server } = ctx;
  const uris = new Set<string>();
  const open: ResourceTemplate[] = [];
  const templates = new Map<string, readonly string[]>();
  /** A resource template, registered in the index (`lessons`: whether its URIs are lessons', open-ended). */
  const template = (uriTemplate: string, list: ConstructorParameters<typeof ResourceTemplate>[1], lessons: boolean) => {
    const made = new ResourceTemplate(uriTemplate, list);
    templates.set(uriTemplate, made.uriTemplate.variableNames);
    if (lessons) open.push(made);
    return made;
  };
  /**
   * A resource whose text is a command's stdout. A refusal (exit 1 or 2: a curriculum symlinked out of
   * the course, a FIFO state) is -32602 with the `error:` line, as a prompt's; only an internal error
   * (exit 3, a bug) is -32603.
   */
  const resource = (
    name: string,
    uri: string,
    description: string,
    mimeType: string,
    command: string,
    args: Record<string, unknown> = {},
  ) => {
    const tool = commandNamed(command);
    uris.add(uri);
    server.registerResource(name, uri, { description, mimeType }, async (): Promise<ReadResourceResult> => {
      const outcome = await ctx.run(tool, args);
      if (outcome.exitCode !== 0)
        throw commandFailure(outcome.exitCode, inToolTerms(outcome.error ?? `exit ${outcome.exitCode}`));
      const transform = command === 'state next' ? withNextCall : command === 'state stages' ? inToolTermsDeep : null;
      const text =
        transform === null
          ? outcome.stdout
          : `${JSON.stringify(transform(JSON.parse(outcome.stdout) as Record<string, unknown>), null, 2)}\n`;
      return { contents: [{ uri, mimeType, text }] };
    });
  };
  resource(
    'state',
    'codelabgen://state',
    'The whole course state (the answer of state_show).',
    'application/json',
    'state show',
  );
  resource(
    'next',
    'codelabgen://next',
    'What to do next (the answer of state_next, with next_call).',
    'application/json',
    'state next',
  );
  resource(
    'stages',
    'codelabgen://stages',
    'The lesson stages, their work, worker role and next step (the answer of state_stages).',
    'application/json',
    'state stages',
  );
  for (const topic of CONVENTION_TOPICS)
    resource(
      `conventions-${topic}`,
      `codelabgen://conventions/${topic}`,
      `The ${topic} conventions, with examples (the answer of conventions {"topic":"${topic}"}).`,
      'text/markdown',
      'conventions',
      { topic },
    );
  for (const name of SCHEMA_NAMES)
    resource(
      `schema-${name}`,
      `codelabgen://schema/${name}`,
      `JSON Schema of ${name} (the answer of schema_show {"name":"${name}"}).`,
      'application/schema+json',
      'schema show',
      { name },
    );

  // Lessons and their runs, the report: resource templates (codelabgen://lesson/{id} lists every lesson).
  const lessonIds = async (): Promise<string[]> => ctx.lessonIdsOf({});
  server.registerResource(
    'lesson',
    template(
      'codelabgen://lesson/{id}',
      {
        list: async () => ({
          resources: (await lessonIds()).map((id) => ({
            uri: `codelabgen://lesson/${id}`,
            name: `lesson ${id}`,
            mimeType: 'application/json',
          })),
        }),
      },
      true,
    ),
    { description: "One lesson's state (its entry in the answer of state_show).", mimeType: 'application/json' },
    async (uri, { id }): Promise<ReadResourceResult> => {
      const lesson = getOwn((await ctx.stateOf()).lessons, String(id));
      if (lesson === undefined) throw resourceNotFound(uri.href, `unknown lesson "${printable(String(id))}"`);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: `${JSON.stringify({ id: String(id), ...lesson }, null, 2)}\n`,
          },
        ],
      };
    },
  );
  server.registerResource(
    'lesson-run',
    template('codelabgen://lesson/{id}/run/{n}', { list: undefined }, true),
    {
      description: 'One verify run of a lesson (.codelabgen/runs/<id>/<n>.json, the run-result schema).',
      mimeType: 'application/json',
    },
    async (uri, { id, n }): Promise<ReadResourceResult> => {
      if (getOwn((await ctx.stateOf()).lessons, String(id)) === undefined || !/^[1-9]\d{0,5}$/.test(String(n)))
        throw resourceNotFound(uri.href, `no run "${printable(String(n))}" of lesson "${printable(String(id))}"`);
      const root = await ctx.courseRoot();
      const file = path.relative(
        path.join(root, '.codelabgen'),
        path.join(root, ARTIFACTS.runsDir(String(id)), `${String(n)}.json`),
      );
      const text = codelabgenFileText(uri.href, root, file, `lesson ${String(id)} has no run ${String(n)}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );
  uris.add('codelabgen://report');
  server.registerResource(
    'report',
    'codelabgen://report',
    {
      description: 'The last report (.codelabgen/report.json, written by the report tool).',
      mimeType: 'application/json',
    },
    async (uri): Promise<ReadResourceResult> => {
      const text = codelabgenFileText(
        uri.href,
        await ctx.courseRoot(),
        'report.json',
        'no report yet: call the report tool',
      );
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );
  const fromCommand = async (
    command: string,
    args: Record<string, unknown>,
    uri: string,
    mimeType: string,
  ): Promise<ReadResourceResult> => {
    const outcome = await ctx.run(commandNamed(command), args);
    if (outcome.exitCode !== 0) throw resourceNotFound(uri, inToolTerms(outcome.error ?? `exit ${outcome.exitCode}`));
    return { contents: [{ uri, mimeType, text: outcome.stdout }] };
  };
  server.registerResource(
    'conventions',
    template('codelabgen://conventions/{topic}', { list: undefined }, false),
    { description: 'The conventions of one topic, with examples.', mimeType: 'text/markdown' },
    (uri, { topic }) => fromCommand('conventions', { topic: String(topic) }, uri.href, 'text/markdown'),
  );
  server.registerResource(
    'schema',
    template('codelabgen://schema/{name}', { list: undefined }, false),
    { description: 'The JSON Schema of one data file.', mimeType: 'application/schema+json' },
    (uri, { name }) => fromCommand('schema show', { name: String(name) }, uri.href, 'application/schema+json'),
  );
  return {
    serves: (uri) => uris.has(uri) || open.some((made) => made.uriTemplate.match(uri) !== null),
    templates,
  };
}

/**
 * A file of the course's `.codelabgen/` (`relative` to it) as text, read through the CLI's hardened
 * reader (readFileInside): a symlink out of `.codelabgen/`, a FIFO, device, folder or oversized file
 * is refused at once with an error naming it, never followed or waited on. `missing`: the error when
 * there is no such file.
 */
function codelabgenFileText(uri: string, courseRoot: string, relative: string, missing: string): string {
  const shown = printable(`.codelabgen/${relative.split(path.sep).join('/')}`);
  let bytes: Buffer | null;
  try {
    bytes = readFileInside(path.join(courseRoot, '.codelabgen'), relative, MAX_DATA_FILE_BYTES);
  } catch (error) {
    if (error instanceof OutsideError)
      throw new McpError(
        ErrorCode.InvalidParams,
        `${shown} resolves outside .codelabgen/ (through a symbolic link); replace the link with the file itself`,
      );
    if (error instanceof UnreadableFileError) throw new McpError(ErrorCode.InvalidParams, `${shown} ${error.reason}`);
    throw error;
  }
  if (bytes === null) throw resourceNotFound(uri, missing);
  return bytes.toString('utf8');
}
