// Summarizes a V8 CPU profile (node --cpu-prof): the functions with the most self time, and with the
// most inclusive time (the function and what it called), in ms and % of the sampled time.
// Several files are added up (the servers of one run).
// Usage: node bench/cpu-profile-top.ts FILE.cpuprofile... [--rows N] [--from-ms N (skip each profile's first N ms)]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const args = process.argv.slice(2);
const rowsAt = args.indexOf('--rows');
const rows = rowsAt === -1 ? 30 : Number(args[rowsAt + 1]);
const fromAt = args.indexOf('--from-ms');
/** Samples of the first N ms of each profile (start-up) are left out. */
const fromMs = fromAt === -1 ? 0 : Number(args[fromAt + 1]);
const files = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
if (files.length === 0) {
  process.stderr.write('usage: node bench/cpu-profile-top.ts FILE.cpuprofile... [--rows N] [--from-ms N]\n');
  process.exit(2);
}
process.stdout.on('error', () => process.exit(0)); // | head
const label = (node: Node) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules\/|dist\/)/, '$1')}:${node.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  let elapsedUs = 0;
  profile.samples.forEach((id, index) => {
    elapsedUs += profile.timeDeltas[index] ?? 0;
    if (elapsedUs >= fromMs * 1000) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  for (const [id, us] of selfUs) {
    total += us;
    self.set(label(byId.get(id)!), (self.get(label(byId.get(id)!)) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (seen.has(name)) continue; // recursion counts once
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
  }
}
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`${title} (of ${(total / 1000).toFixed(0)} ms sampled)\n`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows))
    process.stdout.write(
      `${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}\n`,
    );
};
show('self time', self);
show('inclusive time', inclusive);
