// Stalls: a loaded machine in one variable. With CODELABGEN_STALL=SEED:MAXMS:DIR set and this file in
// NODE_OPTIONS (`--require`), every Node process it reaches (CLI runs, site workers, MCP servers,
// notify receivers, npm, the test files' own processes) blocks its main thread (Atomics.wait) for
// spans of MAXMS/2 to MAXMS: a helper process at its start (one in two) and once or twice at a later
// moment (an unref'd timer: it keeps nothing alive), a test file's process again and again from a
// moment on. It is what the grader's CI does to the Node tests at nice 10 beside the browser tests,
// where a test's 1 s timer once ran 4 s late (docs/testing.md, "No premise a loaded machine breaks").
// Deterministic: the stalls are drawn from the seed, what the process is (its arguments, with the
// repository, the temporary folder and mkdtemp's random suffixes, ports and other long numbers
// written alike) and how many processes the same arguments made before it (a counter: the files
// DIR/KEY.N, each made exclusively and holding that process's plan as JSON). A test file's process
// gives its own processes a folder of their own under DIR, so that a file re-run alone
// (scripts/stall-hunt.ts --seed) stalls its processes as in the whole run. scripts/node-tests.ts (the
// runner) and the hunt itself are never stalled. Without the variable it does nothing.
'use strict';

const setting = process.env.CODELABGEN_STALL;
const { isMainThread } = require('node:worker_threads');
const script = process.argv[1] ?? '';
if (setting && isMainThread && !/scripts[\\/](node-tests|stall-hunt)\.ts$/.test(script)) plan(setting);

/** 32-bit FNV-1a of a string. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** mulberry32: numbers in [0, 1) from a 32-bit seed. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the process is, the same from run to run: its arguments without what changes between runs. */
function identity() {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const repo = path.resolve(__dirname, '..');
  // Its arguments, and Node's options only when they hold the code (node -e, -p): a script's preloads
  // are left out (the runner's for a test file vary with its settings).
  const inline = process.execArgv.some((option) => /^(-e|-p|--eval|--print)(=|$)/.test(option));
  let text = [...(inline ? process.execArgv : []), ...process.argv.slice(1)].join('\0');
  const replace = (from, to) => {
    if (from.length > 1) text = text.split(from).join(to);
  };
  replace(repo, '<repo>'); // first: a clone may be in the temporary folder
  for (const tmp of new Set([os.tmpdir(), fs.realpathSync(os.tmpdir()), '/dev/shm'])) replace(tmp, '<tmp>');
  replace(path.dirname(process.execPath), '<node>');
  // mkdtemp's six random characters after a dash, ports, pids, times.
  return text.replace(/(?<=[\w.]-)[A-Za-z0-9]{6}(?=[/\\\0]|$)/g, 'XXXXXX').replace(/\d{4,}/g, 'N');
}

function plan(value) {
  const fs = require('node:fs');
  const path = require('node:path');
  const [seed, max, ...rest] = value.split(':');
  const dir = rest.join(':');
  const maxMs = Number(max);
  if (!dir || !Number.isFinite(maxMs) || maxMs <= 0) return;
  const who = identity();
  const key = hash(who).toString(16).padStart(8, '0');
  fs.mkdirSync(dir, { recursive: true });
  let count = 0;
  let fd;
  for (;;) {
    try {
      fd = fs.openSync(path.join(dir, `${key}.${count}`), 'wx');
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') return;
      count++;
    }
  }
  const next = random(hash(`${seed}\0${who}\0${count}`));
  const span = () => Math.round(maxMs / 2 + (next() * maxMs) / 2);
  // A moment between 50 ms and 30 s of the process's life, as many early as late (log-uniform).
  const moment = () => Math.round(50 * 600 ** next());
  const testFile = /\.(test|fixture|stress)\.[cm]?[jt]s$/.test(script);
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const stall = (ms) => Atomics.wait(cell, 0, 0, ms);
  if (testFile) {
    // A test file's process is starved all along, as at nice 10 beside the browser tests: a stall, then
    // the next one 1 to 20 s after it ends (log-uniform), for as long as it runs. Its own processes
    // count in a folder of their own.
    const gap = () => Math.round(1000 * 20 ** next());
    const first = moment();
    fs.writeSync(
      fd,
      `${JSON.stringify({ argv: who.split('\0'), pid: process.pid, start: 0, first, gaps: '1-20 s' })}\n`,
    );
    fs.closeSync(fd);
    process.env.CODELABGEN_STALL = `${seed}:${max}:${path.join(dir, `file-${key}`)}`;
    const again = () => {
      stall(span());
      setTimeout(again, gap()).unref();
    };
    setTimeout(again, first).unref();
    return;
  }
  const start = next() < 0.5 ? span() : 0;
  const later = Array.from({ length: next() < 0.5 ? 1 : 2 }, () => ({ at: moment(), ms: span() }));
  fs.writeSync(fd, `${JSON.stringify({ argv: who.split('\0'), pid: process.pid, start, later })}\n`);
  fs.closeSync(fd);
  if (start > 0) stall(start);
  for (const { at, ms } of later) setTimeout(stall, at, ms).unref();
}
