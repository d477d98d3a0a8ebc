// Refinements the schemas name (a value to a problem, or null when it is fine), zod-free so the
// generated validators call the very functions zod's checks call. Schemas attach one with
// `refinement(name)` from refine.ts; a new refinement is added here first.
import { unreadableAccent } from './contrast.ts';

export const REFINEMENTS = {
  accentReadableOnLight: (colour: string): string | null => unreadableAccent(colour, 'light'),
  accentReadableOnDark: (colour: string): string | null => unreadableAccent(colour, 'dark'),
};

export type RefinementName = keyof typeof REFINEMENTS;
