// Accent colours against the course site's backgrounds: WCAG 2 contrast, the refusal for an
// unreadable accent, and the derived dark accent. Plain functions without zod: the config schema
// (config.ts) and the generated validators (through refinements.ts) share them.

/** Page and panel backgrounds of the course site (site/styles/site.css) that accent colours are checked against. */
export const SITE_BACKGROUND = { light: ['#ffffff', '#f6f8fa'], dark: ['#0d1117', '#151b23'] } as const;

export type ColourScheme = keyof typeof SITE_BACKGROUND;

/** The lowest contrast of `colour` with the backgrounds of a scheme, and that background. */
export function worstContrast(colour: string, scheme: ColourScheme): { ratio: number; background: string } {
  return SITE_BACKGROUND[scheme]
    .map((background) => ({ ratio: contrastRatio(colour, background), background }))
    .reduce((a, b) => (b.ratio < a.ratio ? b : a));
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
export function contrastRatio(a: string, b: string): number {
  const lin = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const lum = (hex: string) => {
    const n = parseInt(hex.slice(1), 16);
    return 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Why `colour` is unreadable as a link colour on `scheme` pages (below WCAG AA, 4.5:1), or null. */
export function unreadableAccent(colour: string, scheme: ColourScheme): string | null {
  const { ratio, background } = worstContrast(colour, scheme);
  if (ratio >= 4.5) return null;
  return (
    `${colour} has contrast ${ratio.toFixed(2)}:1 with the ${scheme} background ${background}; links need at ` +
    `least 4.5:1 (WCAG AA): pick a ${scheme === 'light' ? 'darker' : 'lighter'} colour`
  );
}

/** The accent for dark pages: `light` mixed with white in 5% steps until it reaches WCAG AA on the dark backgrounds. */
export function darkAccent(light: string): string {
  const n = parseInt(light.slice(1), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  for (let step = 0; step <= 20; step++) {
    const mixed = `#${rgb
      .map((c) =>
        Math.round(c + ((255 - c) * step) / 20)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    if (worstContrast(mixed, 'dark').ratio >= 4.5) return mixed;
  }
  return '#ffffff';
}
