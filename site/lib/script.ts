// The page script as served (site/routes/page.js.ts): its comment lines and indentation left out.

/**
 * `source` without whole-line `//` comments, indentation and blank lines (about a fifth of
 * site/client/page.js gzip). Line breaks stay, so no statement changes; page.js has no template
 * literals, block comments or strings over several lines, so no line is part of one.
 */
export function compactScript(source: string): string {
  return (
    source
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('//'))
      .join('\n') + '\n'
  );
}
