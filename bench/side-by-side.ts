// Side by side with Starlight (docs/site.md, "Side by side with Starlight"): the demo course's learner
// site and a real Starlight 0.42 project holding the same lessons (how they are written:
// bench/side-by-side-starlight.ts), measured on two of them, 1.1 and 2.3; both served by e2e/static-server.ts and measured in the
// same run with Playwright on Chromium (the system one, as playwright.config.ts finds it) and axe:
// screenshots at 1280 and 390 px in both themes, axe on every page state, page weight (HTML + CSS +
// JS, gzip), requests, search, "On this page" while reading, keyboard, first paint and LCP.
//
// Usage: node bench/side-by-side.ts SHOTS_DIR [--codelabgen-site DIR] [--json]
//   SHOTS_DIR          where the screenshots go (created; PNGs named site-lesson-width-theme-place)
//   --codelabgen-site  a demo site built already (scripts/demo.ts --out DIR, base /) instead of
//                      building one (the demo costs about 40 s of CPU, Starlight about 15 s)
//   --json             print the rows as JSON instead of the table
// Also `node bench/run.ts --only side-by-side` (screenshots into $BENCH_SHOTS or a temporary folder).
// Not part of `npm test` nor of a plain `npm run bench`: it builds two sites and drives a browser
// for about five minutes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { chromiumPath } from '../e2e/paths.ts';
import { serveStatic } from '../e2e/static-server.ts';
import { buildStarlight } from './side-by-side-starlight.ts';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LESSONS = ['1.1', '2.3'] as const;
type LessonId = (typeof LESSONS)[number];
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/** What differs between the two sites: where things are, and how a reader opens them. */
interface Site {
  name: 'codelabgen' | 'Starlight';
  url: string;
  lessons: Record<LessonId, string>;
  searchInput: string;
  /** Result links in the order shown (codelabgen: one per result; Starlight: page, then its sections). */
  resultLinks: string;
  firstResult: string;
  /** One item per result, in the order shown. */
  results: string;
  searchDialog: string;
  tocSummaryPhone: string;
  menuButtonPhone: string;
  /** The "Full size" button of a diagram, where the site has one. */
  diagramButton: string | null;
  /** The first mermaid diagram of the notes (to look at it in both themes). */
  diagram: string;
}

const CODELABGEN = {
  name: 'codelabgen',
  searchInput: 'dialog.search-dialog input',
  resultLinks: 'dialog.search-dialog .search-results a',
  firstResult: 'dialog.search-dialog .search-results li:first-child',
  results: 'dialog.search-dialog .search-results > li',
  searchDialog: 'dialog.search-dialog',
  tocSummaryPhone: 'nav.toc-mobile summary',
  menuButtonPhone: 'button.menu-toggle',
  diagramButton: 'main figure.diagram button:has-text("Full size")',
  diagram: 'main figure.diagram .diagram-svg > svg',
} as const;

const STARLIGHT = {
  name: 'Starlight',
  searchInput: 'site-search dialog input',
  resultLinks: 'site-search dialog a.pagefind-ui__result-link',
  firstResult: 'site-search dialog li.pagefind-ui__result:first-child',
  results: 'site-search dialog li.pagefind-ui__result',
  searchDialog: 'site-search dialog',
  tocSummaryPhone: 'mobile-starlight-toc summary',
  menuButtonPhone: 'button.sl-menu-button',
  diagramButton: null,
  diagram: 'main pre.mermaid svg',
} as const;

/** Queries for a word that is in a heading (and in prose elsewhere): where does the first result go? */
const QUERIES = [
  { query: 'paused', lesson: '1.1', heading: 'consuming-paused-mode', text: 'Consuming: paused mode' },
  { query: 'batches', lesson: '2.3', heading: 'batches', text: 'Batches' },
] as const;

/** The heading the "reading" screenshots and the TOC check scroll to, per lesson (readalong, notes). */
const READING: Record<LessonId, { readalong: string; notes: string }> = {
  '1.1': { readalong: 'Consuming: flowing mode', notes: 'Pitfalls' },
  '2.3': { readalong: 'Records', notes: 'Pitfalls' },
};

export interface Row {
  criterion: string;
  codelabgen: string;
  starlight: string;
  verdict: 'better' | 'equal' | 'worse' | 'n/a';
}

/** Where the screenshots go. */
let shotsDir = '';

export interface SideBySide {
  commit: string;
  date: string;
  load_average: { start: string[]; end: string[] };
  screenshots: string;
  rows: Row[];
  raw: Measured[];
}

/** Builds both sites (or takes a built demo site), measures them and compares; screenshots go to `shots`. */
export async function benchSideBySide(options: { shots: string; codelabgenSite?: string }): Promise<SideBySide> {
  shotsDir = path.resolve(options.shots);
  mkdirSync(shotsDir, { recursive: true });
  const loadAtStart = loadavg().map((v) => v.toFixed(2));
  const log = (text: string) => process.stderr.write(`side-by-side: ${text}\n`);
  log(`load average at start: ${loadAtStart.join(' ')} on ${cpus().length} CPUs`);
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).stdout.trim();

  const work = mkdtempSync(path.join(tmpdir(), 'codelabgen-side-by-side-'));
  // Starlight must resolve from the repository's node_modules (bench/side-by-side-starlight.ts).
  const host = path.join(REPO, '.cache', `side-by-side-${process.pid}`);
  try {
    let clSite = options.codelabgenSite ? path.resolve(options.codelabgenSite) : '';
    if (!clSite) {
      clSite = path.join(work, 'site');
      log('building the demo course and its site (scripts/demo.ts)');
      const demo = spawnSync(
        process.execPath,
        [path.join(REPO, 'scripts', 'demo.ts'), '--dir', path.join(work, 'course'), '--out', clSite, '--quiet'],
        { cwd: REPO, encoding: 'utf8' },
      );
      if (demo.status !== 0) throw new Error(`scripts/demo.ts exited ${demo.status}\n${demo.stderr}`);
    }
    if (!existsSync(path.join(clSite, 'index.html'))) throw new Error(`${clSite} holds no built site`);
    log('building the Starlight project');
    const starlight = buildStarlight(REPO, host, path.join(REPO, 'examples', 'node-streams'));
    const [clServer, slServer] = await Promise.all([serveStatic(clSite, '/'), serveStatic(starlight.out, '/')]);
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const sites: Site[] = [
        {
          ...CODELABGEN,
          url: clServer.url,
          lessons: {
            '1.1': `${clServer.url}lessons/1.1-readable-streams/`,
            '2.3': `${clServer.url}lessons/2.3-csv-etl/`,
          },
        },
        {
          ...STARLIGHT,
          url: slServer.url,
          lessons: {
            '1.1': `${slServer.url}${starlight.pages.get('1.1')}`,
            '2.3': `${slServer.url}${starlight.pages.get('2.3')}`,
          },
        },
      ];
      const raw: Measured[] = [];
      for (const site of sites) {
        log(`measuring ${site.name}`);
        raw.push(await measure(browser, site));
      }
      writeFileSync(path.join(shotsDir, 'results.json'), `${JSON.stringify(raw, null, 2)}\n`);
      const loadAtEnd = loadavg().map((v) => v.toFixed(2));
      return {
        commit,
        date: new Date().toISOString(),
        load_average: { start: loadAtStart, end: loadAtEnd },
        screenshots: shotsDir,
        rows: compare(raw[0]!, raw[1]!),
        raw,
      };
    } finally {
      await browser.close();
      await Promise.all([clServer.close(), slServer.close()]);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(host, { recursive: true, force: true });
  }
}

/** The table (criterion | codelabgen | Starlight | verdict) and a line saying when and how loaded. */
export function sideBySideTable(result: SideBySide): string {
  const lines = ['| criterion | codelabgen | Starlight | verdict |', '|---|---|---|---|'];
  for (const r of result.rows) lines.push(`| ${r.criterion} | ${r.codelabgen} | ${r.starlight} | ${r.verdict} |`);
  const worse = result.rows.filter((r) => r.verdict === 'worse').length;
  lines.push(
    '',
    `${worse} worse, ${result.rows.filter((r) => r.verdict === 'better').length} better, ` +
      `${result.rows.filter((r) => r.verdict === 'equal').length} equal; commit ${result.commit}, ${result.date}` +
      `, load average ${result.load_average.start.join(' ')} → ${result.load_average.end.join(' ')} on ` +
      `${cpus().length} CPUs; screenshots in ${result.screenshots}`,
  );
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'codelabgen-site': { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) {
    process.stderr.write('usage: node bench/side-by-side.ts SHOTS_DIR [--codelabgen-site DIR] [--json]\n');
    process.exit(2);
  }
  const result = await benchSideBySide({ shots: positionals[0]!, codelabgenSite: values['codelabgen-site'] });
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : sideBySideTable(result));
}

// ---------------------------------------------------------------------------------------------------

interface Weight {
  html: number;
  css: number;
  js: number;
  /** gzip of HTML + CSS + JS, as a server compressing them would send them. */
  gzip: number;
  js_gzip: number;
  /** gzip of the HTML and of the CSS and JS it names itself (not chunks a script imports later). */
  named_gzip: number;
  requests: number;
  /** Requests other than HTML, CSS and JS (images, fonts, JSON). */
  other_requests: number;
}

export interface Measured {
  site: string;
  weight: Record<LessonId, Weight>;
  paint: Record<LessonId, { fcp_ms: number; lcp_ms: number }>;
  axe: Record<string, string[]>;
  search: Array<{
    query: string;
    first_link: string;
    lands: boolean;
    heading_rank: number;
    heading_in_first_result: boolean;
    shows_path: boolean;
    first_result_text: string;
    search_bytes_gzip: number;
    search_loaded: string[];
  }>;
  toc: Record<LessonId, { readalong: TocState; notes: TocState }>;
  keyboard: {
    skip_link: string;
    skip_works: boolean;
    tabs_to_main_without_skip: number;
    landmarks: Record<string, number>;
  };
  /** Lesson 1.1 and 2.3 at 1280 px: the code lines of the page and those that wrap (taller than one line). */
  code: Record<LessonId, { lines: number; wrapped: number }>;
  /** Search "backpressure": the rank of the first result that is lesson 1.1 (titled with it). */
  titled_rank: number;
  /** The search dialog at 390 px: its share of the screen, and Escape presses that close it with a query typed. */
  search_dialog: { screen_share: number; escapes_to_close: number };
  /** Per "lesson at width": the diagrams in the page and those wider than what shows of them. */
  diagrams: Record<string, { count: number; clipped: number; smallest_label_px: number }>;
  console_errors: string[];
}

interface TocState {
  links_in_view: number;
  /** Entries of the whole list. */
  entries: number;
  /** The section being read, as the TOC marks it (aria-current, or the bar's label). */
  current: string;
}

async function measure(browser: Browser, site: Site): Promise<Measured> {
  const consoleErrors: string[] = [];
  const context = async (theme: Theme, width: number): Promise<{ ctx: BrowserContext; page: Page }> => {
    const ctx = await browser.newContext({
      viewport: { width, height: width < 600 ? 844 : 900 },
      colorScheme: theme,
      reducedMotion: 'reduce',
    });
    const page = await ctx.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: uncaught ${e.message}`));
    return { ctx, page };
  };
  const open = async (page: Page, url: string) => {
    await page.goto(url, { waitUntil: 'networkidle' });
    await settleDiagrams(page);
  };

  const weight = {} as Measured['weight'];
  const paint = {} as Measured['paint'];
  for (const lesson of LESSONS) {
    weight[lesson] = await pageWeight(browser, site.lessons[lesson]);
    const loads = [];
    for (let i = 0; i < 3; i++) loads.push(await paintTimes(browser, site.lessons[lesson]));
    paint[lesson] = { fcp_ms: median(loads.map((l) => l.fcp_ms)), lcp_ms: median(loads.map((l) => l.lcp_ms)) };
  }

  // Screenshots: top of the page and while reading (the readalong's second section), every width and
  // theme; whether each diagram fits its column.
  const diagrams: Measured['diagrams'] = {};
  const code = {} as Measured['code'];
  const prefix = site.name.toLowerCase();
  for (const theme of THEMES) {
    for (const width of [1280, 390]) {
      const { ctx, page } = await context(theme, width);
      for (const lesson of LESSONS) {
        await open(page, site.lessons[lesson]);
        if (theme === 'light') diagrams[`${lesson} at ${width}`] = await diagramFit(page, site.diagram);
        await page.screenshot({ path: path.join(shotsDir, `${prefix}-${lesson}-${width}-${theme}-top.png`) });
        await scrollToHeading(page, READING[lesson].readalong);
        await page.screenshot({ path: path.join(shotsDir, `${prefix}-${lesson}-${width}-${theme}-reading.png`) });
        if (theme === 'light' && width === 1280) code[lesson] = await wrappedLines(page);
        if (width === 1280) {
          const diagram = page.locator(site.diagram).first();
          if ((await diagram.count()) > 0) {
            await diagram.evaluate((el) => el.scrollIntoView({ block: 'center' }));
            await page.waitForTimeout(200);
            await page.screenshot({ path: path.join(shotsDir, `${prefix}-${lesson}-${width}-${theme}-diagram.png`) });
          }
        }
      }
      await ctx.close();
    }
  }

  // axe on every page state, both themes.
  const axe: Measured['axe'] = {};
  const check = async (page: Page, label: string) => {
    const { violations } = await new AxeBuilder({ page })
      .setLegacyMode(true)
      .options({ resultTypes: ['violations'] })
      .analyze();
    axe[label] = violations.map(
      (v) =>
        `${v.impact} ${v.id} (${v.nodes.length}×: ${v.nodes
          .slice(0, 2)
          .map((n) => n.target.join(' '))
          .join(' | ')})`,
    );
  };
  for (const theme of THEMES) {
    const desk = await context(theme, 1280);
    for (const lesson of LESSONS) {
      await open(desk.page, site.lessons[lesson]);
      await check(desk.page, `lesson ${lesson} at 1280 (${theme})`);
    }
    await open(desk.page, site.lessons['1.1']);
    await openSearch(desk.page, site, 'stream');
    await check(desk.page, `search open with results (${theme})`);
    if (theme === 'light') await desk.page.screenshot({ path: path.join(shotsDir, `${prefix}-search-1280-light.png`) });
    if (site.diagramButton) {
      await open(desk.page, site.lessons['1.1']);
      await desk.page.locator(site.diagramButton).first().click();
      await desk.page.getByRole('dialog').first().waitFor({ state: 'visible' });
      await check(desk.page, `diagram full size (${theme})`);
      if (theme === 'dark')
        await desk.page.screenshot({ path: path.join(shotsDir, `${prefix}-diagram-dialog-1280-dark.png`) });
    }
    await desk.ctx.close();
    const phone = await context(theme, 390);
    await open(phone.page, site.lessons['1.1']);
    await phone.page.locator(site.tocSummaryPhone).first().click();
    await phone.page.waitForTimeout(200);
    await check(phone.page, `"On this page" open at 390 (${theme})`);
    if (theme === 'light')
      await phone.page.screenshot({ path: path.join(shotsDir, `${prefix}-toc-open-390-light.png`) });
    await open(phone.page, site.lessons['1.1']);
    await phone.page.locator(site.menuButtonPhone).first().click();
    await phone.page.waitForTimeout(300);
    await check(phone.page, `menu open at 390 (${theme})`);
    if (theme === 'light')
      await phone.page.screenshot({ path: path.join(shotsDir, `${prefix}-menu-open-390-light.png`) });
    await phone.ctx.close();
  }

  // Search: a word that is a heading's (and in prose elsewhere), typed from the home page.
  const search: Measured['search'] = [];
  for (const q of QUERIES) {
    const { ctx, page } = await context('light', 1280);
    await open(page, site.url);
    let bytes = 0;
    const loaded: string[] = [];
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      pending.push(
        response.body().then(
          (body) => {
            const gz = gzipSync(body).length;
            bytes += gz;
            loaded.push(`${new URL(response.url()).pathname} ${(gz / 1024).toFixed(1)} KB`);
          },
          () => undefined,
        ),
      );
    });
    await openSearch(page, site, q.query);
    await Promise.all(pending);
    const searchBytes = bytes;
    const searchLoaded = [...loaded];
    const hrefs = await page
      .locator(site.resultLinks)
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    const rank = hrefs.findIndex((href) => href.endsWith(`#${q.heading}`)) + 1;
    const firstLink = (await page.locator(site.resultLinks).first().getAttribute('href')) ?? '';
    const firstResult = page.locator(site.firstResult);
    const text = (await firstResult.innerText()).replace(/\s+/g, ' ').trim();
    const inFirst = await firstResult.locator(`a[href$="#${q.heading}"]`).count();
    const sectionLinks = await firstResult.locator('a[href*="#"]').count();
    // Following the first link: is the heading at the top of the window?
    await page.locator(site.resultLinks).first().click();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    const landed = await page.evaluate((id) => {
      const heading = document.getElementById(id);
      if (!heading || location.hash !== `#${id}`) return false;
      const top = heading.getBoundingClientRect().top;
      return top >= 0 && top < window.innerHeight / 2;
    }, q.heading);
    const lessonTitle = q.lesson === '1.1' ? 'Readable streams' : 'CSV-to-database ETL';
    search.push({
      query: q.query,
      first_link: firstLink.replace(site.url, '/'),
      lands: landed,
      heading_rank: rank,
      heading_in_first_result: inFirst > 0,
      shows_path: text.includes(lessonTitle) && sectionLinks > 0,
      first_result_text: text.slice(0, 160),
      search_bytes_gzip: searchBytes,
      search_loaded: searchLoaded,
    });
    await ctx.close();
  }

  // Search "backpressure" (lesson 1.1's title has it; other lessons' headings and prose too).
  let titledRank = 0;
  {
    const { ctx, page } = await context('light', 1280);
    await open(page, site.url);
    await openSearch(page, site, 'backpressure');
    titledRank = await page.locator(site.results).evaluateAll(
      (items, target) =>
        items.findIndex((li) => {
          const a = li.querySelector('a');
          return a !== null && new URL(a.href).pathname === target;
        }) + 1,
      new URL(site.lessons['1.1']).pathname,
    );
    await ctx.close();
  }
  // The search dialog on a phone: how much of the screen it has, and the Escapes that close it.
  const searchDialog = { screen_share: 0, escapes_to_close: 0 };
  {
    const { ctx, page } = await context('light', 390);
    await open(page, site.lessons['1.1']);
    await openSearch(page, site, 'stream');
    const dialog = page.locator(site.searchDialog).first();
    const box = (await dialog.boundingBox())!;
    searchDialog.screen_share = Math.round((100 * box.width * box.height) / (390 * 844)) / 100;
    await page.screenshot({ path: path.join(shotsDir, `${prefix}-search-390-light.png`) });
    for (let i = 1; i <= 3 && searchDialog.escapes_to_close === 0; i++) {
      await page.keyboard.press('Escape');
      await page.waitForTimeout(200);
      if (!(await dialog.isVisible())) searchDialog.escapes_to_close = i;
    }
    await ctx.close();
  }

  // "On this page" while reading at 1280: links in view, and the section it marks as current.
  const toc = {} as Measured['toc'];
  {
    const { ctx, page } = await context('light', 1280);
    for (const lesson of LESSONS) {
      await open(page, site.lessons[lesson]);
      const states = {} as { readalong: TocState; notes: TocState };
      for (const part of ['readalong', 'notes'] as const) {
        await scrollToHeading(page, READING[lesson][part]);
        await page.waitForTimeout(400);
        states[part] = await page.evaluate(() => {
          const navs = [...document.querySelectorAll('nav')].filter(
            (nav) =>
              /on this page/i.test(nav.getAttribute('aria-label') ?? '') ||
              /on this page/i.test(
                document.getElementById(nav.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
              ),
          );
          const inView = (el: Element) => {
            const r = el.getBoundingClientRect();
            return (
              el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
              r.width > 0 &&
              r.height > 0 &&
              r.bottom > 0 &&
              r.top < window.innerHeight &&
              r.right > 0 &&
              r.left < window.innerWidth
            );
          };
          // One list per site: the entries of the longest "On this page" nav.
          const entries = Math.max(0, ...navs.map((nav) => nav.querySelectorAll('a').length));
          const links = navs.flatMap((nav) => [...nav.querySelectorAll('a')]).filter(inView);
          const marked = links.find((a) => a.getAttribute('aria-current'));
          const bar = navs.map((nav) => nav.querySelector('.toc-current')).find((el) => el && inView(el));
          return {
            links_in_view: links.length,
            entries,
            current: (marked?.textContent ?? bar?.textContent ?? '').trim(),
          };
        });
      }
      toc[lesson] = states;
    }
    await ctx.close();
  }

  // Keyboard: the first Tab, the skip link, the landmarks.
  let keyboard: Measured['keyboard'];
  {
    const { ctx, page } = await context('light', 1280);
    await open(page, site.lessons['1.1']);
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => {
      const el = document.activeElement as HTMLAnchorElement | null;
      return { text: (el?.textContent ?? '').trim(), href: el?.getAttribute('href') ?? '' };
    });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const skipWorks =
      /skip/i.test(first.text) && (await page.evaluate(() => !!document.activeElement?.closest('main')));
    await open(page, site.lessons['1.1']);
    let tabs = 0;
    while (tabs < 200) {
      await page.keyboard.press('Tab');
      tabs++;
      if (
        await page.evaluate(
          () => !!document.activeElement?.closest('main') && !/skip/i.test(document.activeElement?.textContent ?? ''),
        )
      )
        break;
    }
    const landmarks: Record<string, number> = {};
    for (const role of ['banner', 'navigation', 'main', 'contentinfo', 'search'] as const)
      landmarks[role] = await page.getByRole(role).count();
    keyboard = {
      skip_link: `${first.text} → ${first.href}`,
      skip_works: skipWorks,
      tabs_to_main_without_skip: tabs,
      landmarks,
    };
    await ctx.close();
  }
  return {
    site: site.name,
    weight,
    paint,
    axe,
    search,
    toc,
    keyboard,
    code,
    titled_rank: titledRank,
    search_dialog: searchDialog,
    diagrams,
    console_errors: consoleErrors,
  };
}

/** Diagrams (by `selector`) whose drawing is wider than the box that shows it (cut off, or to scroll sideways). */
async function diagramFit(
  page: Page,
  selector: string,
): Promise<{ count: number; clipped: number; smallest_label_px: number }> {
  return page.locator(selector).evaluateAll((svgs) => {
    let clipped = 0;
    let smallest = Infinity;
    for (const svg of svgs) {
      const r = svg.getBoundingClientRect();
      // mermaid draws labels 16 px high in the viewBox's units; the page scales the drawing.
      const viewBox = (svg as SVGSVGElement).viewBox.baseVal;
      if (viewBox && viewBox.width > 0) smallest = Math.min(smallest, (16 * r.width) / viewBox.width);
      let box: DOMRect = new DOMRect(0, 0, document.documentElement.clientWidth, window.innerHeight);
      for (let el = svg.parentElement; el && el !== document.body; el = el.parentElement) {
        if (getComputedStyle(el).overflowX !== 'visible') {
          box = el.getBoundingClientRect();
          break;
        }
      }
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.right > document.documentElement.clientWidth + 1)
        clipped++;
    }
    return {
      count: svgs.length,
      clipped,
      smallest_label_px: Number.isFinite(smallest) ? Math.round(smallest * 10) / 10 : 0,
    };
  });
}

/** Waits until client-side mermaid (Starlight's recipe; codelabgen draws at build time) has drawn. */
async function settleDiagrams(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('pre.mermaid:not([data-drawn])').length === 0, undefined, {
    timeout: 60_000,
  });
}

async function scrollToHeading(page: Page, text: string): Promise<void> {
  await page
    .locator('main')
    .getByRole('heading', { name: text, exact: true })
    .first()
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(300);
}

/** The page's code lines (Expressive Code in both sites) and those taller than one line: wrapped. */
async function wrappedLines(page: Page): Promise<{ lines: number; wrapped: number }> {
  return page.evaluate(() => {
    const heights = [...document.querySelectorAll('main .expressive-code .ec-line')]
      .map((l) => l.getBoundingClientRect().height)
      .filter((h) => h > 0);
    const one = Math.min(...heights);
    return { lines: heights.length, wrapped: heights.filter((h) => h > one * 1.4).length };
  });
}

async function openSearch(page: Page, site: Site, query: string): Promise<void> {
  await page.keyboard.press('Control+k');
  const input = page.locator(site.searchInput).first();
  await input.waitFor({ state: 'visible' });
  await input.fill(query);
  await page.locator(site.resultLinks).first().waitFor({ state: 'visible', timeout: 15_000 });
  await page.waitForTimeout(800); // both debounce and fill results in steps
}

/** HTML, CSS and JS of one fresh load of `url` (no cache), raw and gzip; all requests counted. */
async function pageWeight(browser: Browser, url: string): Promise<Weight> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const w: Weight = { html: 0, css: 0, js: 0, gzip: 0, js_gzip: 0, named_gzip: 0, requests: 0, other_requests: 0 };
  const pending: Promise<void>[] = [];
  const sizes: Array<{ url: string; kind: string; gzip: number }> = [];
  let html = '';
  page.on('response', (response) => {
    w.requests++;
    const type = response.request().resourceType();
    const kind = type === 'document' ? 'html' : type === 'stylesheet' ? 'css' : type === 'script' ? 'js' : null;
    if (!kind) {
      w.other_requests++;
      return;
    }
    pending.push(
      response.body().then((body) => {
        w[kind] += body.length;
        const gz = gzipSync(body).length;
        sizes.push({ url: response.url(), kind, gzip: gz });
        if (kind === 'html') html = body.toString('utf8');
        w.gzip += gz;
        if (kind === 'js') w.js_gzip += gz;
      }),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await settleDiagrams(page);
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  // The HTML as served: Vite's preload helper adds <link rel="modulepreload"> for lazy chunks later.
  for (const size of sizes)
    if (size.kind === 'html' || html.includes(new URL(size.url).pathname)) w.named_gzip += size.gzip;
  await ctx.close();
  return w;
}

async function paintTimes(browser: Browser, url: string): Promise<{ fcp_ms: number; lcp_ms: number }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(url, { waitUntil: 'networkidle' });
  const times = await page.evaluate(
    () =>
      new Promise<{ fcp_ms: number; lcp_ms: number }>((resolve) => {
        let lcp = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) lcp = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(
          () =>
            resolve({
              fcp_ms: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
              lcp_ms: lcp,
            }),
          200,
        );
      }),
  );
  await ctx.close();
  return times;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

// ---------------------------------------------------------------------------------------------------

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Lower is better; within `tolerance` (a fraction) counts as equal. */
function lower(a: number, b: number, tolerance = 0.05): Row['verdict'] {
  // Magnitudes: "higher is better" rows pass negated figures (two equal ones were "worse" before).
  if (Math.abs(a - b) <= Math.max(Math.abs(a), Math.abs(b)) * tolerance) return 'equal';
  return a < b ? 'better' : 'worse';
}

function yes(a: boolean, b: boolean): Row['verdict'] {
  return a === b ? 'equal' : a ? 'better' : 'worse';
}

function compare(cl: Measured, sl: Measured): Row[] {
  const rows: Row[] = [];
  for (const lesson of LESSONS) {
    const a = cl.weight[lesson];
    const b = sl.weight[lesson];
    const raw = (w: Weight) => `${kb(w.gzip)} (raw: HTML ${kb(w.html)}, CSS ${kb(w.css)}, JS ${kb(w.js)})`;
    rows.push({
      criterion: `lesson ${lesson}: HTML + CSS + JS, gzip (≤ 40 KB)`,
      codelabgen: raw(a),
      starlight: raw(b),
      verdict: lower(a.gzip, b.gzip),
    });
    rows.push({
      criterion: `lesson ${lesson}: within 40 KB gzip (HTML + CSS + JS)`,
      codelabgen: a.gzip <= 40 * 1024 ? 'yes' : `no (${kb(a.gzip - 40 * 1024)} over)`,
      starlight: b.gzip <= 40 * 1024 ? 'yes' : `no (${kb(b.gzip - 40 * 1024)} over)`,
      verdict: yes(a.gzip <= 40 * 1024, b.gzip <= 40 * 1024),
    });
    rows.push({
      criterion: `lesson ${lesson}: HTML + the CSS and JS it names (without chunks loaded later: Starlight's mermaid), gzip`,
      codelabgen: kb(a.named_gzip),
      starlight: kb(b.named_gzip),
      verdict: lower(a.named_gzip, b.named_gzip),
    });
    rows.push({
      criterion: `lesson ${lesson}: JS loaded (gzip; raw)`,
      codelabgen: `${kb(a.js_gzip)}; ${kb(a.js)}`,
      starlight: `${kb(b.js_gzip)}; ${kb(b.js)}`,
      verdict: lower(a.js_gzip, b.js_gzip),
    });
    rows.push({
      criterion: `lesson ${lesson}: requests (of them not HTML/CSS/JS)`,
      codelabgen: `${a.requests} (${a.other_requests})`,
      starlight: `${b.requests} (${b.other_requests})`,
      verdict: lower(a.requests, b.requests, 0),
    });
    rows.push({
      criterion: `lesson ${lesson}: first contentful paint / LCP (median of 3 loads, local server; LCP within 25% is equal)`,
      codelabgen: `${Math.round(cl.paint[lesson].fcp_ms)} / ${Math.round(cl.paint[lesson].lcp_ms)} ms`,
      starlight: `${Math.round(sl.paint[lesson].fcp_ms)} / ${Math.round(sl.paint[lesson].lcp_ms)} ms`,
      verdict: lower(cl.paint[lesson].lcp_ms, sl.paint[lesson].lcp_ms, 0.25),
    });
  }
  const states = [...new Set([...Object.keys(cl.axe), ...Object.keys(sl.axe)])];
  for (const state of states) {
    const a = cl.axe[state];
    const b = sl.axe[state];
    const count = (v: string[] | undefined) =>
      v === undefined ? 'n/a (no such state)' : `${v.length}${v.length ? `: ${v.join('; ')}` : ''}`;
    rows.push({
      criterion: `axe violations: ${state}`,
      codelabgen: count(a),
      starlight: count(b),
      verdict: a === undefined || b === undefined ? 'n/a' : lower(a.length, b.length, 0),
    });
  }
  for (const [i, q] of cl.search.entries()) {
    const s = sl.search[i]!;
    const score = (r: typeof q) => (r.lands ? 2 : r.heading_in_first_result ? 1 : 0);
    const say = (r: typeof q) =>
      r.lands
        ? `yes (${r.first_link})`
        : r.heading_in_first_result
          ? `no: first link ${r.first_link}; the heading is a sub-link of the first result`
          : `no: ${r.first_link}`;
    rows.push({
      criterion: `search "${q.query}": the first result's link lands on the heading`,
      codelabgen: say(q),
      starlight: say(s),
      verdict: lower(-score(q), -score(s), 0),
    });
    const rank = (r: typeof q) =>
      r.heading_rank === 0 ? 'not among the results' : `link ${r.heading_rank} of the results`;
    rows.push({
      criterion: `search "${q.query}": where the link to the heading "${QUERIES[i]!.text}" is`,
      codelabgen: rank(q),
      starlight: rank(s),
      verdict: lower(q.heading_rank || 999, s.heading_rank || 999, 0),
    });
    rows.push({
      criterion: `search "${q.query}": the first result shows its lesson and section(s)`,
      codelabgen: `${q.shows_path ? 'yes' : 'no'}: "${q.first_result_text.slice(0, 70)}…"`,
      starlight: `${s.shows_path ? 'yes' : 'no'}: "${s.first_result_text.slice(0, 70)}…"`,
      verdict: yes(q.shows_path, s.shows_path),
    });
    rows.push({
      criterion: `search "${q.query}": bytes loaded by the search (gzip)`,
      codelabgen: kb(q.search_bytes_gzip),
      starlight: kb(s.search_bytes_gzip),
      verdict: lower(q.search_bytes_gzip, s.search_bytes_gzip, 0.1),
    });
  }
  for (const lesson of LESSONS) {
    rows.push({
      criterion: `lesson ${lesson} at 1280 px: code lines that wrap`,
      codelabgen: `${cl.code[lesson].wrapped} of ${cl.code[lesson].lines}`,
      starlight: `${sl.code[lesson].wrapped} of ${sl.code[lesson].lines}`,
      verdict: lower(cl.code[lesson].wrapped, sl.code[lesson].wrapped, 0),
    });
  }
  const place = (rank: number) => (rank === 0 ? 'not among the results' : `result ${rank}`);
  rows.push({
    criterion: 'search "backpressure": where lesson 1.1 (titled with it) is',
    codelabgen: place(cl.titled_rank),
    starlight: place(sl.titled_rank),
    verdict: lower(cl.titled_rank || 999, sl.titled_rank || 999, 0),
  });
  rows.push({
    criterion: 'search dialog at 390 px: share of the screen',
    codelabgen: `${Math.round(cl.search_dialog.screen_share * 100)} %`,
    starlight: `${Math.round(sl.search_dialog.screen_share * 100)} %`,
    verdict: lower(-cl.search_dialog.screen_share, -sl.search_dialog.screen_share, 0.02),
  });
  const escapes = (n: number) => (n === 0 ? 'not closed by 3' : String(n));
  rows.push({
    criterion: 'search dialog: Escape presses that close it with a query typed',
    codelabgen: escapes(cl.search_dialog.escapes_to_close),
    starlight: escapes(sl.search_dialog.escapes_to_close),
    verdict: lower(cl.search_dialog.escapes_to_close || 9, sl.search_dialog.escapes_to_close || 9, 0),
  });
  for (const lesson of LESSONS) {
    for (const part of ['readalong', 'notes'] as const) {
      const a = cl.toc[lesson][part];
      const b = sl.toc[lesson][part];
      const say = (t: TocState) =>
        `${t.links_in_view} of ${t.entries} entries in view; current: ${t.current ? `"${t.current}"` : 'none'}`;
      // Where the reader is (the section named), then the list to jump from (all of it in view).
      const score = (t: TocState) =>
        (t.current === READING[lesson][part] ? 2 : t.current ? 1 : 0) * 2 +
        (t.links_in_view >= t.entries && t.entries > 0 ? 1 : 0);
      const verdict = lower(-score(a), -score(b), 0);
      rows.push({
        criterion: `"On this page" at 1280 px reading lesson ${lesson}'s ${part} ("${READING[lesson][part]}")`,
        codelabgen: say(a),
        starlight: say(b),
        verdict,
      });
    }
  }
  for (const width of [1280, 390]) {
    const sum = (m: Measured) =>
      Object.entries(m.diagrams)
        .filter(([key]) => key.endsWith(` at ${width}`))
        .reduce((t, [, d]) => ({ count: t.count + d.count, clipped: t.clipped + d.clipped }), { count: 0, clipped: 0 });
    const a = sum(cl);
    const b = sum(sl);
    rows.push({
      criterion: `diagrams wider than their box at ${width} px (cut off or scrolled sideways), both lessons`,
      codelabgen: `${a.clipped} of ${a.count}`,
      starlight: `${b.clipped} of ${b.count}`,
      verdict: lower(a.clipped, b.clipped, 0),
    });
    const smallest = (m: Measured) =>
      Math.min(
        ...Object.entries(m.diagrams)
          .filter(([key, d]) => key.endsWith(` at ${width}`) && d.count > 0)
          .map(([, d]) => d.smallest_label_px),
      );
    rows.push({
      criterion: `smallest diagram label as shown at ${width} px (mermaid's 16 px × the drawing's scale)`,
      codelabgen: `${smallest(cl)} px`,
      starlight: `${smallest(sl)} px`,
      verdict: lower(-smallest(cl), -smallest(sl), 0.05),
    });
  }
  rows.push({
    criterion: 'keyboard: first Tab is a working skip link',
    codelabgen: `${cl.keyboard.skip_works ? 'yes' : 'no'} (${cl.keyboard.skip_link})`,
    starlight: `${sl.keyboard.skip_works ? 'yes' : 'no'} (${sl.keyboard.skip_link})`,
    verdict: yes(cl.keyboard.skip_works, sl.keyboard.skip_works),
  });
  rows.push({
    criterion: 'keyboard: Tab presses to the first control in main without the skip link',
    codelabgen: String(cl.keyboard.tabs_to_main_without_skip),
    starlight: String(sl.keyboard.tabs_to_main_without_skip),
    verdict: lower(cl.keyboard.tabs_to_main_without_skip, sl.keyboard.tabs_to_main_without_skip, 0),
  });
  const marks = (l: Record<string, number>) =>
    Object.entries(l)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  const kinds = (l: Record<string, number>) => Object.values(l).filter((v) => v > 0).length;
  rows.push({
    criterion: 'landmarks (kinds present)',
    codelabgen: marks(cl.keyboard.landmarks),
    starlight: marks(sl.keyboard.landmarks),
    verdict: lower(-kinds(cl.keyboard.landmarks), -kinds(sl.keyboard.landmarks), 0),
  });
  rows.push({
    criterion: 'console errors on every page visited',
    codelabgen:
      String(cl.console_errors.length) +
      (cl.console_errors.length ? `: ${cl.console_errors.slice(0, 2).join('; ')}` : ''),
    starlight:
      String(sl.console_errors.length) +
      (sl.console_errors.length ? `: ${sl.console_errors.slice(0, 2).join('; ')}` : ''),
    verdict: lower(cl.console_errors.length, sl.console_errors.length, 0),
  });
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
