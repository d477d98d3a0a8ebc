// Expressive Code settings of the course pages (shiki at build time): light and dark themes that
// follow the page's data-theme, line numbers, and no JS beyond the copy button. The integration
// passes them inline and to the <Code> component, so no ec.config.mjs is needed in a host site.
import { pluginLineNumbers } from '@expressive-code/plugin-line-numbers';
import type { AstroExpressiveCodeOptions } from 'astro-expressive-code';

export const expressiveCodeOptions: AstroExpressiveCodeOptions = {
  themes: ['github-light', 'github-dark'],
  themeCssSelector: (theme) => `[data-theme='${theme.type}']`,
  useDarkModeMediaQuery: false,
  plugins: [pluginLineNumbers()],
  defaultProps: { showLineNumbers: false, wrap: false },
  styleOverrides: {
    codeFontSize: '0.85rem',
    borderRadius: '6px',
    // The themes' dimmed gutter fails WCAG AA contrast (axe: color-contrast); the site's muted colours pass.
    lineNumbers: { foreground: ({ theme }) => (theme.type === 'dark' ? '#9198a1' : '#59636e') },
  },
};
