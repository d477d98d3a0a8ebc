// The registries of extensible concepts (docs/architecture.md, "Registries"), zod-free: the entry
// the CLI's command table and start-up path import them through (cli/ may not load zod there).
export * from './doc-kinds.ts';
export * from './runtimes.ts';
export { listInProse } from './prose-list.ts';
