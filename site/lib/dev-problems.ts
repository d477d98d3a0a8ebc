// The course's problems in `site dev`, for the banner of site/components/DevLive.astro: the list the
// dev server last printed as `error:` lines (pipeline/site/dev-watch.ts keeps it on globalThis, in
// the same process but another module graph), and the name of the HMR event that sends it again.

/** The custom HMR event with `{ problems: string[] }`, sent each time the list changes. */
export const DEV_PROBLEMS = 'codelabgen:problems';

/** The problems as the dev server last found them (server side; [] before the first check). */
export function devProblems(): string[] {
  const value: unknown = Reflect.get(globalThis, Symbol.for('codelabgen.devProblems'));
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
}
