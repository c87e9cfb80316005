/**
 * Summarizes a V8 CPU profile (bench/devdb.ts PROFILE=..., or node --cpu-prof): the functions with the most self
 * time, and with the most total time (self plus callees, counted once per sample).
 * Run: npx tsx bench/profile-summary.ts <file.cpuprofile> [TOP=25]
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile>');
const top = Number(process.env.TOP ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(devdb|worker)\//, '$1/');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
};
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  all += ms;
  const leaf = byId.get(id)!;
  self.set(label(leaf), (self.get(label(leaf)) ?? 0) + ms);
  const seen = new Set<string>();
  for (let node: ProfileNode | undefined = leaf; node; node = byId.get(parent.get(node.id) ?? -1)) {
    const name = label(node);
    if (seen.has(name)) continue;
    seen.add(name);
    total.set(name, (total.get(name) ?? 0) + ms);
  }
});
const print = (title: string, table: Map<string, number>) => {
  console.log(`${title} (of ${all.toFixed(0)} ms sampled)`);
  for (const [name, ms] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${ms.toFixed(0).padStart(8)} ms ${((ms / all) * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
};
print('self time', self);
print('total time', total);
