// The steps of a site build, as the CLI's progress display names them. Shared by the build engine
// (build.ts) and the Astro integration (integration.ts), which import it rather than each other.
export type BuildStep = 'loading' | 'diagrams' | 'pages' | 'search' | 'done';
export type Progress = (step: BuildStep, detail: string) => void;
