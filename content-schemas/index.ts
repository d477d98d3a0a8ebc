// content-schemas: zod schemas of every data file and the one parse entry point.
// Imported by pipeline/ and site/; imports nothing of the project.
export * from './common.ts';
export * from './registries.ts';
export * from './config.ts';
export * from './source.ts';
export * from './topic.ts';
export * from './curriculum.ts';
export * from './lesson-spec.ts';
export * from './run-result.ts';
export * from './glossary-entry.ts';
export * from './review.ts';
export * from './worker-status.ts';
export * from './task.ts';
export * from './state.ts';
export * from './event.ts';
export * from './report.ts';
export * from './errors.ts';
export * from './parse.ts';
export * from './regular-file.ts';
export * from './registry.ts';
