// Expressive Code settings for the course site (shiki at build time): light and dark themes that
// follow the page's data-theme, line numbers, and no JS beyond the copy button.
import { defineEcConfig } from 'astro-expressive-code';
import { pluginLineNumbers } from '@expressive-code/plugin-line-numbers';

export default defineEcConfig({
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
});
