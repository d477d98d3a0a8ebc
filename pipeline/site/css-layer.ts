// Inside a Starlight site the course's stylesheets go into Starlight's `starlight.components`
// cascade layer, where Starlight puts Expressive Code's CSS: a layered rule loses to any unlayered
// one, so the course's own rules (unlayered) would otherwise win over Expressive Code's whatever
// their specificity, and squeeze its code blocks (issue 36: a 104 px wide `pre` at 1280 px). In the
// same layer both compete as they do standalone, where neither is layered. site.css itself is left
// as it is: the wrapping happens here, as Vite loads it.
import path from 'node:path';

/** The layer Starlight gives Expressive Code (its `cascadeLayer` default). */
export const STARLIGHT_EC_LAYER = 'starlight.components';

/** A Vite plugin wrapping every stylesheet under `stylesDir` in `@layer <layer> { ... }`. */
export function cssLayerPlugin(stylesDir: string, layer: string) {
  const prefix = `${path.resolve(stylesDir)}${path.sep}`;
  return {
    name: 'codelabgen:css-layer',
    enforce: 'pre' as const,
    transform(code: string, id: string) {
      const file = id.split('?')[0]!;
      if (!file.endsWith('.css') || !path.resolve(file).startsWith(prefix)) return null;
      return { code: `@layer ${layer} {\n${code}\n}\n`, map: null };
    },
  };
}
