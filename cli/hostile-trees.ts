// The hostile course trees of cli/hostile-course.test.ts: a seeded choice of things a worker, a
// course author or an attacker can plant in a course folder (symlinks inside and out, FIFOs,
// sockets, device links, huge sparse files, deep trees, names with `..`, `%`, `?`, `#`, backslashes,
// newlines and escape bytes, hostile docs, diagrams, images and front matter). Each plants into
// `root` and may point at `outside`, a sibling folder holding CANARY, which no output may contain.
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, rmSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import path from 'node:path';

/** In outside/secret.txt (and every other file planted outside): no command may print or publish it. */
export const CANARY = 'CANARY-7f3e9d-outside-the-course';
/** The first line of /etc/passwd, which the plants link to: no output may hold it either. */
export const PASSWD_LINE = 'root:x:0:0:';

/** What of the files outside the course `text` holds (the canary, /etc/passwd), by name. */
export function outsideContent(text: string): string[] {
  return [
    ...(text.includes(CANARY) ? ['the canary of the folder outside'] : []),
    ...(text.includes(PASSWD_LINE) ? ['/etc/passwd'] : []),
  ];
}
/** Written outside by a module that runs only if course content reaches a loader. */
export const PWNED = 'PWNED';
/** Script the planted docs and images would run if published as written (in a built page, an SVG, a served page). */
export const PUBLISHED_SCRIPT =
  /<script>window\.__pwned|on(?:error|load)="window\.__pwned|href="javascript:window\.__pwned|<iframe src="javascript:/;

export interface Plant {
  name: string;
  plant(root: string, outside: string, lessonDir: string): void;
  /** Planted after the others: it replaces the lesson folder, whose later plants would land outside. */
  last?: boolean;
}

function put(file: string, text: string | Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  rmSync(file, { force: true, recursive: true });
  writeFileSync(file, text);
}

function link(target: string, at: string): void {
  mkdirSync(path.dirname(at), { recursive: true });
  rmSync(at, { force: true, recursive: true });
  symlinkSync(target, at);
}

function fifo(at: string): void {
  mkdirSync(path.dirname(at), { recursive: true });
  rmSync(at, { force: true, recursive: true });
  spawnSync('mkfifo', [at]);
}

function socket(at: string): void {
  mkdirSync(path.dirname(at), { recursive: true });
  rmSync(at, { force: true, recursive: true });
  // Python leaves the socket file behind when it exits (Node would unlink it).
  spawnSync('python3', ['-c', 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])', at]);
}

function sparse(at: string, bytes: number): void {
  mkdirSync(path.dirname(at), { recursive: true });
  const fd = openSync(at, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

const SCRIPT_DOC = `# Notes

<script>window.__pwned = 1</script>

<img src="x" onerror="window.__pwned = 1">

[a link](javascript:window.__pwned=1)

![A figure](img/fig.mjs%3Fv=2.png)

\`\`\`mermaid
flowchart LR
  A["<img src=x onerror=window.__pwned=1>"] --> B
  click A call window.__pwned()
\`\`\`
`;

/** The plants, each named; the fuzzer picks some per tree. */
export const PLANTS: readonly Plant[] = [
  {
    name: 'a lesson doc symlinked to a file outside',
    plant: (_root, outside, lesson) => link(path.join(outside, 'secret.txt'), path.join(lesson, 'docs', 'notes.md')),
  },
  {
    name: 'the readalong symlinked to a file outside',
    plant: (_root, outside, lesson) =>
      link(path.join(outside, 'secret.txt'), path.join(lesson, 'docs', 'readalong.md')),
  },
  {
    name: 'a code file symlinked to /etc/passwd and one to outside',
    plant: (_root, outside, lesson) => {
      link('/etc/passwd', path.join(lesson, 'passwd.mjs'));
      link(path.join(outside, 'secret.txt'), path.join(lesson, 'secret.mjs'));
    },
  },
  { name: 'a FIFO as the notes', plant: (_root, _outside, lesson) => fifo(path.join(lesson, 'docs', 'notes.md')) },
  { name: 'a FIFO as a code file', plant: (_root, _outside, lesson) => fifo(path.join(lesson, 'pipe.mjs')) },
  { name: 'a FIFO at .codelabgen/report.json', plant: (root) => fifo(path.join(root, '.codelabgen', 'report.json')) },
  { name: 'a FIFO as the curriculum', plant: (root) => fifo(path.join(root, '.codelabgen', 'curriculum.yaml')) },
  {
    name: 'a socket as the readalong',
    plant: (_root, _o, lesson) => socket(path.join(lesson, 'docs', 'readalong.md')),
  },
  {
    name: 'a code file linked to /dev/zero and an image to /dev/urandom',
    plant: (_root, _outside, lesson) => {
      link('/dev/zero', path.join(lesson, 'zero.mjs'));
      link('/dev/urandom', path.join(lesson, 'docs', 'img', 'noise.png'));
    },
  },
  {
    name: 'a 3 GiB sparse code file',
    plant: (_root, _outside, lesson) => sparse(path.join(lesson, 'huge.mjs'), 3 * 1024 ** 3),
  },
  {
    name: 'a tree 120 folders deep in the lesson',
    plant: (_root, _outside, lesson) => {
      const deep = path.join(lesson, ...Array.from({ length: 120 }, (_, i) => `d${i % 10}`));
      put(path.join(deep, 'deep.mjs'), 'export const deep = 1;\n');
    },
  },
  {
    name: 'files named with %, ?, #, a backslash, a newline and an escape sequence',
    plant: (_root, _outside, lesson) => {
      for (const name of [
        'a%2e%2e%2fb.mjs',
        'q?v=1.mjs',
        'h#frag.mjs',
        '..\\..\\evil.bat',
        'new\nline.mjs',
        'esc\x1b]0;title\x07.mjs',
        '..x.mjs',
      ])
        put(path.join(lesson, name), 'export const x = 1;\n');
    },
  },
  {
    name: 'a doc with script, handlers, a javascript: link, a query-string image and a clickable diagram',
    plant: (_root, outside, lesson) => {
      put(path.join(lesson, 'docs', 'notes.md'), SCRIPT_DOC);
      // The module a loader would run if the image's path reached it as a specifier.
      put(
        path.join(lesson, 'docs', 'img', 'fig.mjs'),
        `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(path.join(outside, PWNED))}, 'ran');\n`,
      );
      put(path.join(lesson, 'docs', 'img', 'fig.mjs?v=2.png'), 'not a png');
    },
  },
  {
    name: 'an SVG image with a script and a foreignObject',
    plant: (_root, _outside, lesson) => {
      put(
        path.join(lesson, 'docs', 'img', 'evil.svg'),
        '<svg xmlns="http://www.w3.org/2000/svg" ' +
          'onload="window.__pwned=1"><script>window.__pwned=1</script><foreignObject><iframe ' +
          'src="javascript:window.__pwned=1"/></foreignObject></svg>',
      );
      put(
        path.join(lesson, 'docs', 'readalong.md'),
        '# Read along\n\n![evil](img/evil.svg)\n\n```js file=main.mjs\n```\n',
      );
    },
  },
  {
    name: 'front matter with a YAML bomb and a JS tag',
    plant: (_root, _outside, lesson) => {
      const bomb = [
        'a: &a ["x","x","x","x","x","x","x","x","x"]',
        ...Array.from(
          { length: 8 },
          (_, i) =>
            `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}` +
            `,*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*` +
            `${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*` +
            `${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
        ),
      ];
      put(
        path.join(lesson, 'docs', 'notes.md'),
        `---\n${bomb.join('\n')}\nevil: !!js/function "function () { return 1 }"\n---\n# Notes\n`,
      );
    },
  },
  {
    name: 'a diagrams folder symlinked outside, and a .mmd symlinked to a secret',
    plant: (_root, outside, lesson) => {
      link(outside, path.join(lesson, 'docs', 'diagrams'));
    },
  },
  {
    name: 'the lesson folder itself symlinked outside',
    plant: (_root, outside, lesson) => {
      // A read-only lesson planted before keeps its entries from being removed.
      for (const dir of [lesson, path.join(lesson, 'docs')]) chmodSync(dir, 0o755);
      rmSync(lesson, { recursive: true, force: true });
      symlinkSync(outside, lesson);
    },
    last: true,
  },
  {
    name: 'the curriculum and a spec symlinked outside',
    plant: (root, outside) => {
      link(path.join(outside, 'secret.txt'), path.join(root, '.codelabgen', 'curriculum.yaml'));
      link(path.join(outside, 'secret.txt'), path.join(root, '.codelabgen', 'lessons', '1.2', 'spec.yaml'));
    },
  },
  {
    name: 'state.json symlinked outside',
    plant: (root, outside) => link(path.join(outside, 'secret.txt'), path.join(root, '.codelabgen', 'state.json')),
  },
  { name: 'a FIFO as state.json', plant: (root) => fifo(path.join(root, '.codelabgen', 'state.json')) },
  {
    name: 'a read-only lesson folder and docs',
    plant: (_root, _outside, lesson) => {
      chmodSync(path.join(lesson, 'docs'), 0o555);
      chmodSync(lesson, 0o555);
    },
  },
  {
    name: 'non-UTF-8 and NUL bytes in the docs',
    plant: (_root, _outside, lesson) =>
      put(path.join(lesson, 'docs', 'readalong.md'), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x00, 0x0a, 0xc3, 0x28])),
  },
];
