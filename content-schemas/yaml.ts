// js-yaml as the parse helpers use it; loaded lazily (content-schemas/lazy-load.ts), only by a
// command that reads a YAML file.
export { load, JSON_SCHEMA } from 'js-yaml';
