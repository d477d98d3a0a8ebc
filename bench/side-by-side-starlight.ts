// The Starlight half of bench/side-by-side.ts: writes a real Starlight project holding the lessons of
// the demo course (examples/node-streams: all six, so that search and sidebar hold what the
// codelabgen site's do; the bench measures two), as a Starlight author would write them, and builds it.
//
// How the lessons are written (what a Starlight author does with the course's files):
// - one page per lesson, `src/content/docs/lessons/<id>-<slug>.md`: front matter title (the
//   curriculum's lesson title) and description (its summary), then "## Objectives", the readalong
//   and the notes (their `# Title` becomes an h2, their `##` headings h3, so Starlight's "On this
//   page" lists the same h2/h3 headings as codelabgen's), then "## Diagrams" with the lesson's
//   `docs/diagrams/*.mmd` files. The file listings, glossary terms and sources codelabgen adds are
//   left out: the brief compares the readalong and notes.
// - a code reference (```js file=src/x.mjs lines=8-23 mark=14-19) is pasted as the lines it names
//   into an Expressive Code block with its file name as title, line numbers from the first line
//   (@expressive-code/plugin-line-numbers in ec.config.mjs, Starlight's documented way) and the
//   marked lines (EC counts marks from the block's first line, so mark 14 of lines 8-23 is {7}).
// - a link to another lesson's doc links to its page; a lesson's images (docs/img/) are copied beside
//   the pages (src/content/docs/lessons/img/), where the same relative path finds them.
// - mermaid: Starlight draws none itself. The usual recipe (the astro-mermaid integration) is a
//   markdown plugin that turns ```mermaid fences into <pre class="mermaid"> before Expressive Code
//   sees them (on Astro 7's Sätteri markdown: a hast plugin), and a page script that imports mermaid only on pages with a diagram and draws them in the
//   browser in the current theme, again when the theme changes. The same is written inline here
//   (mermaid from the repository's node_modules), so the bench needs no package beyond Starlight.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';

export interface LessonSource {
  id: string;
  slug: string;
  title: string;
  summary: string;
  objectives: string[];
  /** The lesson folder. */
  dir: string;
}

interface Curriculum {
  title: string;
  modules: Array<{
    id: string;
    slug: string;
    title: string;
    lessons: Array<{ id: string; slug: string; title: string; summary: string; objectives?: string[] }>;
  }>;
}

/** The curriculum's title and the lessons of a course folder (examples/node-streams), in order. */
export function readLessons(course: string): { title: string; lessons: LessonSource[]; modules: Map<string, string> } {
  const curriculum = load(readFileSync(path.join(course, '.codelabgen', 'curriculum.yaml'), 'utf8')) as Curriculum;
  const lessons: LessonSource[] = [];
  const modules = new Map<string, string>();
  for (const module of curriculum.modules) {
    for (const lesson of module.lessons) {
      modules.set(lesson.id, module.title);
      lessons.push({
        id: lesson.id,
        slug: lesson.slug,
        title: lesson.title,
        summary: lesson.summary,
        objectives: lesson.objectives ?? [],
        dir: path.join(course, `${module.id}-${module.slug}`, `${lesson.id}-${lesson.slug}`),
      });
    }
  }
  return { title: curriculum.title, lessons, modules };
}

/** A lesson doc turned into Starlight markdown: headings one level down, code references pasted. */
export function starlightDoc(lessonDir: string, markdown: string): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = /^(```+)(\S*)\s*(.*)$/.exec(line);
    if (fence === null && open) {
      fence = open[1]!;
      const ref = /(?:^|\s)file=(\S+)/.exec(open[3]!);
      if (ref) {
        // A code reference: its body is empty; paste the lines it names.
        const lineRange = /(?:^|\s)lines=(\d+)-(\d+)/.exec(open[3]!);
        const mark = /(?:^|\s)mark=(\S+)/.exec(open[3]!);
        const source = readFileSync(path.join(lessonDir, ref[1]!), 'utf8').replace(/\n$/, '').split('\n');
        const from = lineRange ? Number(lineRange[1]) : 1;
        const to = lineRange ? Number(lineRange[2]) : source.length;
        const marks = mark
          ? mark[1]!.split(',').map((part) =>
              part
                .split('-')
                .map((n) => Number(n) - from + 1)
                .join('-'),
            )
          : [];
        out.push(
          `${fence}${open[2]} title="${ref[1]}" showLineNumbers startLineNumber=${from}${marks.length > 0 ? ` {${marks.join(',')}}` : ''}`,
        );
        out.push(...source.slice(from - 1, to));
        // Skip the reference's own (empty) body up to its closing fence.
        while (i + 1 < lines.length && !lines[i + 1]!.startsWith(fence)) i++;
        continue;
      }
      out.push(line);
      continue;
    }
    if (fence !== null && line.startsWith(fence) && line.trim() === fence) fence = null;
    else if (fence === null && /^#{1,5} /.test(line)) {
      out.push(`#${line}`);
      continue;
    }
    // A link to another lesson's folder or doc goes to that lesson's page.
    out.push(
      fence === null
        ? line.replace(
            /\]\((?:\.\.\/)+(?:[\w-]+\/)?(\d+)\.(\d+)-([\w-]+)\/(?:docs\/[\w-]+\.md)?(#[\w-]+)?\)/g,
            (_, m, l, slug, hash) => `](/lessons/${m}-${l}-${slug}/${hash ?? ''})`,
          )
        : line,
    );
  }
  return out.join('\n');
}

/** A lesson's Starlight page: front matter, objectives, readalong, notes, diagrams. */
export function starlightPage(lesson: LessonSource): string {
  const docs = path.join(lesson.dir, 'docs');
  const parts = [
    `---\ntitle: ${JSON.stringify(`${lesson.id} ${lesson.title}`)}\ndescription: ${JSON.stringify(lesson.summary)}\n---\n`,
  ];
  if (lesson.objectives.length > 0)
    parts.push(`## Objectives\n\n${lesson.objectives.map((o) => `- ${o}`).join('\n')}\n`);
  for (const doc of ['readalong.md', 'notes.md']) {
    if (existsSync(path.join(docs, doc)))
      parts.push(starlightDoc(lesson.dir, readFileSync(path.join(docs, doc), 'utf8')));
  }
  const diagrams = existsSync(path.join(docs, 'diagrams'))
    ? readdirSync(path.join(docs, 'diagrams'))
        .filter((f) => f.endsWith('.mmd'))
        .sort()
    : [];
  if (diagrams.length > 0) {
    parts.push('## Diagrams\n');
    for (const file of diagrams) {
      const source = readFileSync(path.join(docs, 'diagrams', file), 'utf8').trim();
      const title = /^%% title: (.*)$/m.exec(source)?.[1] ?? file.replace(/\.mmd$/, '');
      parts.push(`### ${title}\n\n\`\`\`mermaid\n${source}\n\`\`\`\n`);
    }
  }
  return parts.join('\n');
}

const ASTRO_CONFIG = (title: string, sidebar: unknown) => `import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import { satteri } from '@astrojs/markdown-satteri';

// As the astro-mermaid integration does: mermaid fences become <pre class="mermaid"> before
// Expressive Code sees them (Astro 7's markdown is Sätteri: a hast plugin given here runs before the
// one Expressive Code appends), and a page script draws them in the browser.
function mermaidPre() {
  return {
    name: 'mermaid-pre',
    element: {
      filter: ['pre'],
      visit(node) {
        const code = node.children[0];
        if (code?.type === 'element' && code.tagName === 'code' && code.data?.lang === 'mermaid') {
          return { type: 'element', tagName: 'pre', properties: { className: ['mermaid'] }, children: code.children };
        }
      },
    },
  };
}

const mermaidScript = \`
const diagrams = [...document.querySelectorAll('pre.mermaid')];
if (diagrams.length > 0) {
  const { default: mermaid } = await import('mermaid');
  for (const pre of diagrams) pre.dataset.source = pre.textContent;
  let round = 0;
  const draw = async () => {
    const dark = document.documentElement.dataset.theme === 'dark';
    mermaid.initialize({ startOnLoad: false, theme: dark ? 'dark' : 'default' });
    round++;
    for (const [i, pre] of diagrams.entries()) {
      const { svg } = await mermaid.render('mermaid-' + round + '-' + i, pre.dataset.source);
      pre.innerHTML = svg;
      pre.dataset.drawn = 'true';
    }
  };
  await draw();
  new MutationObserver(draw).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
}
\`;

export default defineConfig({
  markdown: { processor: satteri({ hastPlugins: [mermaidPre] }) },
  integrations: [
    starlight({ title: ${JSON.stringify(title)}, sidebar: ${JSON.stringify(sidebar)} }),
    {
      name: 'mermaid',
      hooks: {
        'astro:config:setup': ({ injectScript }) => {
          injectScript('page', mermaidScript);
        },
      },
    },
  ],
});
`;

/**
 * Writes the Starlight project into `host` (which must sit inside the repository, e.g. its .cache/,
 * so that Starlight and Astro resolve from the repository's node_modules without symlinks: Astro
 * mis-joins the paths of a symlinked Starlight's components) and builds it into `host/dist`.
 */
export function buildStarlight(
  repo: string,
  host: string,
  course: string,
): { out: string; pages: Map<string, string>; ms: number } {
  const { title, lessons, modules } = readLessons(course);
  rmSync(host, { recursive: true, force: true });
  const groups = new Map<string, Array<{ label: string; link: string }>>();
  const pages = new Map<string, string>();
  const files: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'starlight-side-by-side',
      type: 'module',
      private: true,
      dependencies: { '@astrojs/starlight': '*', astro: '*', mermaid: '*' },
    }),
    'ec.config.mjs':
      `import { pluginLineNumbers } from '@expressive-code/plugin-line-numbers';\nexport default { plugins: ` +
      `[pluginLineNumbers()], defaultProps: { showLineNumbers: false } };\n`,
    'src/content.config.ts':
      `import { defineCollection } from 'astro:content';\nimport { docsLoader } from ` +
      `'@astrojs/starlight/loaders';\nimport { docsSchema } from '@astrojs/starlight/schema';\nexport const ` +
      `collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };\n`,
    'src/content/docs/index.md':
      `---\ntitle: ${JSON.stringify(title)}\n---\n\nThe lessons: ` +
      `${lessons.map((l) => `[${l.id} ${l.title}](/lessons/${l.id.replace('.', '-')}-${l.slug}/)`).join(', ')}` +
      `.\n`,
  };
  for (const lesson of lessons) {
    const slug = `${lesson.id.replace('.', '-')}-${lesson.slug}`;
    files[`src/content/docs/lessons/${slug}.md`] = starlightPage(lesson);
    pages.set(lesson.id, `lessons/${slug}/`);
    const group = modules.get(lesson.id)!;
    groups.set(group, [
      ...(groups.get(group) ?? []),
      { label: `${lesson.id} ${lesson.title}`, link: `/lessons/${slug}/` },
    ]);
  }
  files['astro.config.mjs'] = ASTRO_CONFIG(
    title,
    [...groups].map(([label, items]) => ({ label, items })),
  );
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(host, file)), { recursive: true });
    writeFileSync(path.join(host, file), text);
  }
  for (const lesson of lessons) {
    const images = path.join(lesson.dir, 'docs', 'img');
    if (existsSync(images))
      cpSync(images, path.join(host, 'src', 'content', 'docs', 'lessons', 'img'), {
        recursive: true,
        errorOnExist: true,
        force: false,
      });
  }
  mkdirSync(path.join(host, 'node_modules'));
  // Starlight wants js-yaml 4 (astro's); the repository's own js-yaml 5 sits at its top.
  symlinkSync(
    path.join(repo, 'node_modules', '@astrojs', 'starlight', 'node_modules', 'js-yaml'),
    path.join(host, 'node_modules', 'js-yaml'),
  );
  const started = Date.now();
  const result = spawnSync(process.execPath, [path.join(repo, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
    cwd: host,
    encoding: 'utf8',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' },
  });
  if (result.status !== 0)
    throw new Error(`the Starlight build exited ${result.status}\n${result.stderr}${result.stdout}`);
  return { out: path.join(host, 'dist'), pages, ms: Date.now() - started };
}
