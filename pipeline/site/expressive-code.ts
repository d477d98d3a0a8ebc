// Expressive Code settings of the course pages (shiki at build time): light and dark themes that
// follow the page's data-theme, line numbers, and no JS beyond the copy button. The integration
// passes them inline and to the <Code> component, so no ec.config.mjs is needed in a host site.
import { pluginLineNumbers } from '@expressive-code/plugin-line-numbers';
import { isInlineStyleAnnotation, type AstroExpressiveCodeOptions, type ExpressiveCodePlugin, type InlineStyleAnnotation } from 'astro-expressive-code';

/**
 * Lighter token markup (docs/performance.md): shiki gives every token one colour per theme, and
 * Expressive Code wraps each in a span with an inline style. A colour on whitespace shows nothing,
 * and a token in the theme's own text colour looks the same without a span: those colours are
 * dropped before rendering, so about half the spans of a typical block go away. What is left
 * renders exactly as before.
 */
export function pluginLeanTokens(): ExpressiveCodePlugin {
  return {
    name: 'codelabgen-lean-tokens',
    hooks: {
      postprocessAnnotations: ({ codeBlock, styleVariants }) => {
        const text = styleVariants.map((v) => String(v.theme.colors['editor.foreground'] ?? v.theme.fg).toLowerCase());
        for (const line of codeBlock.getLines()) {
          for (const annotation of line.getAnnotations()) {
            if (!isInlineStyleAnnotation(annotation) || !annotation.inlineRange) continue;
            const style = annotation as InlineStyleAnnotation;
            if (style.bgColor || style.underline || style.strikethrough) continue;
            const { columnStart, columnEnd } = annotation.inlineRange;
            const blank = line.text.slice(columnStart, columnEnd).trim() === '';
            const variants = style.styleVariantIndex === undefined ? text : [text[style.styleVariantIndex]];
            const plain = !style.italic && !style.bold && style.color !== undefined && variants.every((fg) => fg === style.color!.toLowerCase());
            if (blank || plain) line.deleteAnnotation(annotation);
          }
        }
      },
    },
  };
}

export const expressiveCodeOptions: AstroExpressiveCodeOptions = {
  themes: ['github-light', 'github-dark'],
  themeCssSelector: (theme) => `[data-theme='${theme.type}']`,
  useDarkModeMediaQuery: false,
  plugins: [pluginLineNumbers(), pluginLeanTokens()],
  defaultProps: { showLineNumbers: false, wrap: false },
  styleOverrides: {
    codeFontSize: '0.85rem',
    borderRadius: '6px',
    // The themes' dimmed gutter fails WCAG AA contrast (axe: color-contrast); the site's muted colours pass.
    lineNumbers: { foreground: ({ theme }) => (theme.type === 'dark' ? '#9198a1' : '#59636e') },
  },
};
