// Inside a Starlight site the course's stylesheets go into Starlight's `starlight.components`
// cascade layer, where Starlight puts Expressive Code's CSS: a layered rule loses to any unlayered
// one, so the course's own rules (unlayered) would otherwise win over Expressive Code's whatever
// their specificity, and squeeze its code blocks (issue 36: a 104 px wide `pre` at 1280 px). In the
// same layer both compete as they do standalone, where neither is layered. site.css itself is left
// as it is: the wrapping happens here, as Vite loads it.
import path from 'node:path';

/** The layer Starlight gives Expressive Code (its `cascadeLayer` default). */
export const STARLIGHT_EC_LAYER = 'starlight.components';

/**
 * The Starlight variables its Expressive Code styles read (frames, borders, title bars), which only
 * Starlight's own pages define: on the course pages they take the course's palette (site.css's
 * --c-* variables follow its light and dark themes), so the code blocks keep their frames.
 */
export const STARLIGHT_VARIABLES = `:root {
  --sl-color-black: var(--c-bg);
  --sl-color-text: var(--c-text);
  --sl-color-gray-5: var(--c-border);
  --sl-color-gray-6: var(--c-soft);
  --sl-color-gray-7: var(--c-soft);
  --sl-color-accent: var(--c-accent);
  --sl-color-accent-high: var(--c-accent);
  --sl-line-height: 1.75;
  --sl-text-code: 0.875rem;
}`;

/** A Vite plugin wrapping every stylesheet under `stylesDir` in `@layer <layer> { ... }`, `extra` appended to `main`'s. */
export function cssLayerPlugin(stylesDir: string, layer: string, main = 'site.css', extra = STARLIGHT_VARIABLES) {
  const prefix = `${path.resolve(stylesDir)}${path.sep}`;
  return {
    name: 'codelabgen:css-layer',
    enforce: 'pre' as const,
    transform(code: string, id: string) {
      const file = id.split('?')[0]!;
      if (!file.endsWith('.css') || !path.resolve(file).startsWith(prefix)) return null;
      const more = path.basename(file) === main ? `\n${extra}` : '';
      return { code: `@layer ${layer} {\n${code}${more}\n}\n`, map: null };
    },
  };
}
