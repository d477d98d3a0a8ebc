// Build-time SVG charts for the generation report: horizontal bars (stage funnel, attempts and
// review rounds per lesson) and a phase timeline. Colours come from the page's CSS classes.
export interface Bar {
  /** What the axis shows: short (a lesson id), never cut. */
  label: string;
  value: number;
  /** The full name in the bar's tooltip (e.g. the lesson's title); default: the label. */
  title?: string;
  className?: string;
}

const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** px per character of a 12 px label, rounded up: the label column fits the longest label. */
const CHAR_PX = 7.5;

/** True when there is something to draw: a chart of zeros says nothing (the page says "none"). */
export function hasValues(bars: readonly Bar[]): boolean {
  return bars.some((b) => b.value > 0);
}

/** Horizontal bar chart; `title` becomes the SVG's accessible name. Labels are drawn whole. */
export function barChart(title: string, bars: Bar[], unit = ''): string {
  const row = 24;
  const labelWidth = Math.max(40, Math.ceil(Math.max(...bars.map((b) => b.label.length)) * CHAR_PX) + 12);
  const width = 640;
  const plot = width - labelWidth - 60;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const height = bars.length * row + 10;
  const rows = bars.map((b, i) => {
    const y = i * row + 5;
    const w = Math.round((b.value / max) * plot);
    const tip = `<title>${esc(`${b.title ?? b.label}: ${b.value}${unit}`)}</title>`;
    return (
      `<g>${tip}<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${esc(b.label)}</text>` +
      `<rect class="${b.className ?? 'bar'}" x="${labelWidth}" y="${y + 2}" width="${Math.max(w, b.value > 0 ? 2 : 0)}" height="${row - 6}" rx="2"/>` +
      `<text x="${labelWidth + w + 6}" y="${y + 15}">${b.value}${esc(unit)}</text></g>`
    );
  });
  return (
    `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${width} ${height}" width="${width}" ` +
    `height="${height}" xmlns="http://www.w3.org/2000/svg"><line class="axis" x1="${labelWidth}" y1="0" x2="` +
    `${labelWidth}" y2="${height}"/>${rows.join('')}</svg>`
  );
}

export interface Span {
  label: string;
  start: number;
  end: number;
}

/** Phases on a time axis: one row per phase, bar from start to end (ms since the first start). */
export function timeline(title: string, spans: Span[]): string {
  const row = 24;
  const labelWidth = Math.max(40, Math.ceil(Math.max(...spans.map((s) => s.label.length)) * CHAR_PX) + 12);
  const width = 640;
  const plot = width - labelWidth - 80;
  const t0 = Math.min(...spans.map((s) => s.start));
  const t1 = Math.max(t0 + 1, ...spans.map((s) => s.end));
  const scale = (t: number) => labelWidth + Math.round(((t - t0) / (t1 - t0)) * plot);
  const height = spans.length * row + 10;
  const rows = spans.map((s, i) => {
    const y = i * row + 5;
    const x = scale(s.start);
    const w = Math.max(2, scale(s.end) - x);
    return (
      `<g><title>${esc(`${s.label}: ${formatMs(s.end - s.start)}`)}</title><text x="${labelWidth - 8}" y="` +
      `${y + 15}" text-anchor="end">${esc(s.label)}</text><rect class="bar${i % 2 ? '-alt' : ''}" x="${x}" y="` +
      `${y + 2}" width="${w}" height="${row - 6}" rx="2"/><text x="${x + w + 6}" y="${y + 15}">` +
      `${formatMs(s.end - s.start)}</text></g>`
    );
  });
  return (
    `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${width} ${height}" width="${width}" ` +
    `height="${height}" xmlns="http://www.w3.org/2000/svg">${rows.join('')}</svg>`
  );
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
