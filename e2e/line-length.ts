// Characters a line, as a reader sees them: for each paragraph (or list item) matched by `items`
// inside `container`, the characters on each of its full lines (every line but its last), found by
// where each character's box starts a new row (line height ~28 px, so 14 px apart is a new line).
import type { Locator } from '@playwright/test';

export async function charactersPerFullLine(container: Locator, items: string): Promise<number[]> {
  return container.evaluate((root, selector) => {
    const counts: number[] = [];
    for (const p of root.querySelectorAll(selector)) {
      const lines: number[] = [];
      const range = document.createRange();
      const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
      let top = -1e9;
      for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
        for (let i = 0; i < t.length; i++) {
          range.setStart(t, i);
          range.setEnd(t, i + 1);
          const r = range.getBoundingClientRect();
          if (r.height === 0) continue;
          if (r.top >= top + 14) lines.push(0), (top = r.top);
          lines[lines.length - 1]!++;
        }
      }
      counts.push(...lines.slice(0, -1));
    }
    return counts;
  }, items);
}
