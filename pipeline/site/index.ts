// pipeline/site: building, previewing and serving the course site. A second entry beside
// pipeline/index.ts, imported lazily by the site commands only, so that no other command loads it.
export * from './build.ts';
export { builtBase, checkOut, isSiteBuild } from './out-folder.ts';
export { diagramCacheDir } from './diagrams.ts';
export { SHALLOW_CLONE_HINT, SHALLOW_CLONE_WARNING } from '../read/index.ts';
