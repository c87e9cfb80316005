/**
 * A CPU profile of the local stack's isolate (the Worker and its Durable Objects) through workerd's inspector
 * (Chrome DevTools protocol), summed by function and by module (self time): bench/worker-profile.ts and
 * bench/realtime-fanout.ts (WORKER_PROFILE) print it.
 */
import fs from 'node:fs';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import WebSocket from 'ws';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A minimal DevTools-protocol client: one request at a time, answered by id. */
export async function inspector(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let next = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return {
    send: <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve) => {
        const id = next++;
        pending.set(id, resolve as (result: unknown) => void);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** Self time per key, from the samples (each sample's time delta goes to the node it landed on). */
export function selfTimes(profile: Profile, key: (node: ProfileNode) => string): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const k = key(node);
    totals.set(k, (totals.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

export const moduleOf = (url: string) => {
  if (!url) return '(native / idle)';
  const nodeModules = url.lastIndexOf('node_modules/');
  if (nodeModules !== -1)
    return url
      .slice(nodeModules + 13)
      .split('/')
      .slice(0, 2)
      .join('/');
  return url.replace(/^.*\/work\/[^/]+\//, '').replace(/^file:\/\//, '');
};

/** Starts profiling the stack's isolate (sampled every 200 µs); `stop` writes the raw profile to `file` and answers it. */
export async function profileIsolate(inspectorPort: number, file: string) {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const devtools = await inspector(targets[0]!.webSocketDebuggerUrl);
  await devtools.send('Profiler.enable');
  await devtools.send('Profiler.setSamplingInterval', { interval: 200 });
  await devtools.send('Profiler.start');
  return {
    async stop(): Promise<Profile> {
      const { profile } = await devtools.send<{ profile: Profile }>('Profiler.stop');
      devtools.close();
      fs.writeFileSync(file, JSON.stringify(profile));
      return profile;
    },
  };
}

/**
 * Where each frame of the deploy bundle (`index.js`) came from, through its source map: the bundle is one file, so
 * without it every row of the Worker's own code and its dependencies reads `index.js`.
 */
function bundleSources(sourceMap: string | undefined): (node: ProfileNode) => ProfileNode {
  if (!sourceMap || !fs.existsSync(sourceMap)) return (node) => node;
  const map = new TraceMap(JSON.parse(fs.readFileSync(sourceMap, 'utf8')));
  const mapped = new Map<ProfileNode, ProfileNode>();
  return (node) => {
    const { url, lineNumber, columnNumber } = node.callFrame as ProfileNode['callFrame'] & { columnNumber: number };
    if (url !== 'index.js') return node;
    let found = mapped.get(node);
    if (!found) {
      const at = originalPositionFor(map, { line: lineNumber + 1, column: Math.max(columnNumber, 0) });
      found = at.source
        ? { ...node, callFrame: { ...node.callFrame, url: at.source, lineNumber: (at.line ?? 1) - 1 } }
        : node;
      mapped.set(node, found);
    }
    return found;
  };
}

/**
 * Prints the isolate's busy time per unit of work (`units` of `unit`), then the top rows by module and by function,
 * named by source file through the bundle's `sourceMap` when given.
 */
export function printProfile(
  profile: Profile,
  units: number,
  unit: string,
  top: number,
  file: string,
  sourceMap?: string,
) {
  const source = bundleSources(sourceMap);
  // Saved with its frames named by source, so bench/profile-summary.ts reads it after the bundle is gone.
  if (sourceMap) fs.writeFileSync(file, JSON.stringify({ ...profile, nodes: profile.nodes.map(source) }));
  const all = selfTimes(profile, () => 'all');
  const idle = selfTimes(profile, (n) => n.callFrame.functionName).find(([name]) => name === '(idle)')?.[1] ?? 0;
  const busy = (all[0]?.[1] ?? 0) - idle;
  console.log(
    `\nthe isolate was busy ${busy.toFixed(0)} ms: ${(busy / units).toFixed(2)} ms of JavaScript per ${unit} (samples every 200 µs; profile: ${file})`,
  );
  const print = (title: string, rows: [string, number][]) => {
    console.log(`\n${title}`);
    for (const [name, ms] of rows.filter(([name]) => name !== '(idle)').slice(0, top))
      console.log(
        `${(ms / units).toFixed(3).padStart(8)} ms/${unit} ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${name}`,
      );
  };
  print(
    'self time by module',
    selfTimes(profile, (n) => (n.callFrame.functionName === '(idle)' ? '(idle)' : moduleOf(source(n).callFrame.url))),
  );
  print(
    'self time by function',
    selfTimes(profile, (n) =>
      n.callFrame.functionName === '(idle)'
        ? '(idle)'
        : `${n.callFrame.functionName || '(anonymous)'}  ${moduleOf(source(n).callFrame.url)}:${source(n).callFrame.lineNumber + 1}`,
    ),
  );
}
