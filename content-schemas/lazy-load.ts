// Synchronous lazy loading for what the hot path rarely needs (the zod schemas, js-yaml). Bundled,
// each is a dist/ entry of its own (scripts/build.mjs); unbundled, the source file beside this one.
// node:module is taken when first needed, not imported: loading it loads parts of Node's ES module
// loader, which a state command needs only when it loads one of these entries (docs/performance.md).

// Defined (true) by scripts/build.mjs in the bundle.
declare const CODELABGEN_BUNDLED: boolean | undefined;
// Defined by scripts/build.mjs: true in dist/state.cjs, false in the other bundles.
declare const CODELABGEN_STATE_BUNDLE: boolean | undefined;

/** `entry`: the bundle's dist/<entry>.mjs; `source`: the same module's file, relative to this one. */
export function loadLazily<T>(entry: string, source: string): T {
  // dist/state.cjs carries js-yaml itself, evaluated on first use: a require of dist/yaml.mjs, an ES
  // module, would start Node's ES module loader, which a state command otherwise never needs.
  if (typeof CODELABGEN_STATE_BUNDLE === 'boolean' && CODELABGEN_STATE_BUNDLE && entry === 'yaml')
    return require('./yaml.ts') as T;
  const load = process.getBuiltinModule('node:module').createRequire(import.meta.url);
  if (typeof CODELABGEN_BUNDLED === 'boolean') {
    const here = new URL('./', import.meta.url);
    const dist = here.pathname.endsWith('/dist/chunks/') ? new URL('../', here) : here;
    return load(new URL(`${entry}.mjs`, dist).pathname) as T;
  }
  // Unbundled only in the repository: the package ships no source (its site is compiled, dist/site/).
  return load(source) as T;
}
