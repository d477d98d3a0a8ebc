// One section of `codelabgen check`'s report: its own module, so that the checks pipeline/check/check.ts
// runs (conventions-check.ts, site/check-refs.ts) can name it without importing check.ts back.
export interface CheckSection {
  name: string;
  detail?: string;
  problems: string[];
  /** Findings that do not fail the check (exit stays 0): worth a look, maybe intended. */
  warnings?: string[];
}
