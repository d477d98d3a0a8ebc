// Admonitions in lesson docs (docs/site.md "Authoring"): `:::note|tip|caution|danger [title]` ... `:::`
// containers and GitHub's `> [!NOTE]` alerts (parsed by marked-alert), both rendered as one
// labelled <aside>. Only markdown.ts uses these extensions; the sanitizer allows what they emit.
import type { MarkedExtension, Token, Tokens } from 'marked';
import markedAlert from 'marked-alert';

export const ASIDE_VARIANTS = ['note', 'tip', 'caution', 'danger'] as const;
export type AsideVariant = (typeof ASIDE_VARIANTS)[number];

/** GitHub's five alerts on the four aside styles; the alert's own word stays the title. */
const GITHUB_ALERTS: Record<string, { variant: AsideVariant; title: string }> = {
  note: { variant: 'note', title: 'Note' },
  tip: { variant: 'tip', title: 'Tip' },
  important: { variant: 'note', title: 'Important' },
  warning: { variant: 'caution', title: 'Warning' },
  caution: { variant: 'danger', title: 'Caution' },
};

const DEFAULT_TITLES: Record<AsideVariant, string> = { note: 'Note', tip: 'Tip', caution: 'Caution', danger: 'Danger' };

/** The classes the aside markup uses (the sanitizer allows these and no others). */
export const ASIDE_CLASSES = {
  aside: ['callout', ...ASIDE_VARIANTS.map((v) => `callout-${v}`)],
  p: ['callout-title'],
  div: ['callout-body'],
};

/** An aside token: `tokens` are its block content (from the line after `:::`), lexed like the rest of the doc. */
export interface AsideToken extends Tokens.Generic {
  type: 'aside';
  raw: string;
  variant: AsideVariant;
  title: string;
  tokens: Token[];
}

const OPEN = new RegExp(
  `^ {0,3}(:{3,})(${ASIDE_VARIANTS.join('|')})(?:\\[([^\\]\\n]*)\\]|[ \\t]+([^\\n]*?))?[ \\t]*(?:\\n|$)`,
);
const ANY_OPEN = /^ {0,3}:{3,}[a-z]/;
const CLOSE = /^ {0,3}(:{3,})[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The `:::` block extension: the container runs to its matching `:::` line (nested containers
 * and fenced code inside are skipped over), or to the end of the doc when it is never closed.
 */
function containerExtension(): MarkedExtension {
  return {
    extensions: [
      {
        name: 'aside',
        level: 'block',
        start: (src: string) => /^ {0,3}:{3,}[a-z]/m.exec(src)?.index,
        tokenizer(src: string): AsideToken | undefined {
          const open = OPEN.exec(src);
          if (!open) return undefined;
          const rest = src.slice(open[0].length);
          let depth = 1;
          let fence: string | null = null;
          let pos = 0;
          let bodyEnd = rest.length;
          let end = rest.length;
          while (pos < rest.length) {
            const newline = rest.indexOf('\n', pos);
            const next = newline === -1 ? rest.length : newline + 1;
            const line = rest.slice(pos, newline === -1 ? rest.length : newline);
            const marker = FENCE.exec(line)?.[1];
            if (fence !== null) {
              if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
                fence = null;
            } else if (marker) {
              fence = marker;
            } else if (ANY_OPEN.test(line)) {
              depth++;
            } else if (CLOSE.test(line) && --depth === 0) {
              bodyEnd = pos;
              end = next;
              break;
            }
            pos = next;
          }
          const raw = open[0] + rest.slice(0, end);
          const variant = open[2] as AsideVariant;
          const title = (open[3] ?? open[4] ?? '').trim() || DEFAULT_TITLES[variant];
          return { type: 'aside', raw, variant, title, tokens: this.lexer.blockTokens(rest.slice(0, bodyEnd), []) };
        },
        renderer(token) {
          const aside = token as AsideToken;
          return renderAside(aside.variant, aside.title, this.parser.parse(aside.tokens));
        },
      },
    ],
  };
}

/** GitHub alerts: marked-alert finds them (as `alert` tokens), this renders them as asides. */
function alertExtension(): MarkedExtension[] {
  return [
    markedAlert(),
    {
      extensions: [
        {
          name: 'alert',
          level: 'block',
          renderer(token) {
            const alert =
              GITHUB_ALERTS[String((token as { meta?: { variant?: string } }).meta?.variant)] ?? GITHUB_ALERTS.note!;
            return renderAside(alert.variant, alert.title, this.parser.parse(token.tokens ?? []));
          },
        },
      ],
    },
  ];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The aside markup: the label names it for assistive technology; the visible title repeats it. */
export function renderAside(variant: AsideVariant, title: string, bodyHtml: string): string {
  const label = escapeHtml(title);
  return (
    `<aside class="callout callout-${variant}" aria-label="${label}"><p class="callout-title" ` +
    `aria-hidden="true">${label}</p><div class="callout-body">${bodyHtml}</div></aside>\n`
  );
}

/** The extensions to `use` on a Marked instance, in order. */
export function asideExtensions(): MarkedExtension[] {
  return [containerExtension(), ...alertExtension()];
}
