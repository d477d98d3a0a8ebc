// Expressive Code settings of the course pages (shiki at build time): light and dark themes that
// follow the page's data-theme, line numbers, and no JS beyond the copy button. The integration
// passes them inline and to the <Code> component, so no ec.config.mjs is needed in a host site.
import { pluginLineNumbers } from '@expressive-code/plugin-line-numbers';
import {
  isInlineStyleAnnotation,
  type AstroExpressiveCodeOptions,
  type ExpressiveCodePlugin,
  type InlineStyleAnnotation,
  type StyleVariant,
} from 'astro-expressive-code';
import type { Element } from 'astro-expressive-code/hast';

/** Which page theme shows style variant `theme` (Expressive Code's `themeCssSelector`). */
const themeSelector = (theme: { type: string }) => `[data-theme='${theme.type}']`;

type Variants = StyleVariant[];

/** Each theme's token colours (after Expressive Code's contrast fixes), lower-cased, in a stable order. */
function palettes(variants: Variants): Map<string, number>[] {
  return variants.map(({ theme }) => {
    const colours = [theme.fg, ...theme.settings.map((s) => s.settings.foreground)].filter(
      (c): c is string => typeof c === 'string' && /^#[0-9a-f]{6}$/i.test(c),
    );
    return new Map([...new Set(colours.map((c) => c.toLowerCase()))].map((c, i) => [c, i]));
  });
}

/** Class of colour `index` of style variant `variant`: `a3` (first theme), `b3` (second), ... */
const colourClass = (variant: number, index: number) => `${String.fromCharCode(97 + variant)}${index.toString(36)}`;

/**
 * Lighter token markup (docs/performance.md): shiki gives every token one colour per theme, and
 * Expressive Code wraps each in a span with an inline style (`--0:#BF3441;--1:#F97583`, 38 bytes a
 * token). A colour on whitespace shows nothing, and a token in the theme's own text colour looks
 * the same without a span: those colours are dropped before rendering. The other spans get one
 * class per theme colour instead (`class="a3 b7"`), defined once in Expressive Code's stylesheet;
 * a colour the themes do not define (marked lines get contrast-fixed ones) keeps its inline style.
 * What is left renders as before.
 */
export function pluginLeanTokens(): ExpressiveCodePlugin {
  let cached: { variants: Variants; palettes: Map<string, number>[] } | null = null;
  const paletteOf = (variants: Variants) => {
    if (cached?.variants !== variants) cached = { variants, palettes: palettes(variants) };
    return cached.palettes;
  };
  return {
    name: 'codelabgen-lean-tokens',
    baseStyles: ({ styleVariants }) => {
      const all = paletteOf(styleVariants);
      const classes = all.flatMap((palette, v) => [...palette.values()].map((i) => `.${colourClass(v, i)}`)).join(',');
      const definitions = all
        .flatMap((palette, v) => [...palette].map(([colour, i]) => `.${colourClass(v, i)}{--${v}:${colour}}`))
        .join('');
      const rules = styleVariants
        .map(
          ({ theme }, v) =>
            `${v === 0 ? '' : `:root${themeSelector(theme)} & `}.ec-line :where(${classes}){color:var(--${v},inherit)}`,
        )
        .join('');
      return definitions + rules;
    },
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
            const plain =
              !style.italic &&
              !style.bold &&
              style.color !== undefined &&
              variants.every((fg) => fg === style.color!.toLowerCase());
            if (blank || plain) line.deleteAnnotation(annotation);
          }
        }
      },
      postprocessRenderedBlock: ({ renderData, styleVariants }) => {
        const all = paletteOf(styleVariants);
        const visit = (node: Element) => {
          for (const child of node.children) if (child.type === 'element') visit(child);
          if (
            node.tagName !== 'span' ||
            node.properties.className !== undefined ||
            typeof node.properties.style !== 'string'
          )
            return;
          const classes: string[] = [];
          for (const declaration of node.properties.style.split(';')) {
            const match = /^--(\d+):(#[0-9a-f]{6})$/i.exec(declaration);
            const index = match ? all[Number(match[1])]?.get(match[2]!.toLowerCase()) : undefined;
            if (index === undefined) return; // anything else (italic, a contrast-fixed colour): keep the inline style
            classes.push(colourClass(Number(match![1]), index));
          }
          delete node.properties.style;
          node.properties.className = classes;
        };
        visit(renderData.blockAst);
      },
    },
  };
}

/**
 * Highlighting that does not depend on the machine's speed. shiki stops tokenizing a line after
 * 500 ms by default and leaves the rest of it as one uncoloured token: on a loaded machine (a CI
 * runner, a build beside a test suite) the first line a build highlights, while the grammar's
 * regexes compile, came out plain now and then, and differently for each theme. A length cap
 * bounds the work instead: a line longer than this (minified code) stays plain on every machine.
 */
export const MAX_TOKENIZED_LINE = 10_000;
const shikiNoTimeLimit = {
  name: 'codelabgen-no-time-limit',
  preprocess(_code: string, options: { tokenizeTimeLimit?: number; tokenizeMaxLineLength?: number }) {
    options.tokenizeTimeLimit = 0;
    options.tokenizeMaxLineLength = MAX_TOKENIZED_LINE;
  },
};

export const expressiveCodeOptions: AstroExpressiveCodeOptions = {
  themes: ['github-light', 'github-dark'],
  shiki: { transformers: [shikiNoTimeLimit] },
  themeCssSelector: themeSelector,
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
