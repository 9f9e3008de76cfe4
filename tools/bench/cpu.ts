// What the benchmarks share to say where CPU time went: a process's CPU time
// and the whole machine's, from /proc; the flags that make Node write a V8 CPU
// profile when the service exits; and a summary of one profile: the functions
// with the most self time, each as a share of the samples taken while the
// process was busy (garbage collection is listed on its own line).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** The CPU time, user and system, a process has used so far, in microseconds. */
export function cpuMicros(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the command name, which may hold spaces.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1e6;
}

/** The CPU time every core of the machine has spent busy so far (all but idle and I/O wait), in microseconds: the service, its stores and the load, together. */
export function machineBusyMicros(): number {
  const [, ...ticks] = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return ((user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND) * 1e6;
}

/** Node's flags to write a profile into `dir` when the process exits; the sampling interval is 100 µs, fine enough for a request's steps. */
export function cpuProfileFlags(dir: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100'];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface ProfileEntry {
  name: string;
  where: string;
  percent: number;
}

/**
 * The `top` functions by self time in the newest profile of `dir`, with idle,
 * garbage collection and the program's own share; only the samples taken
 * `skipMs` or more after the profile began, so that starting up is left out,
 * and before `untilMs`, so that one run of several can be read alone.
 */
export function summarizeProfile(
  dir: string,
  skipMs = 0,
  top = 15,
  untilMs = Number.POSITIVE_INFINITY,
): { file: string; busySamples: number; idlePercent: number; gcPercent: number; entries: ProfileEntry[]; inclusive: ProfileEntry[] } {
  const files = fs.readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).map((name) => path.join(dir, name));
  const file = files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!file) throw new Error(`no .cpuprofile in ${dir}: did the service exit cleanly?`);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const hitsOf = sampleCounts(profile, skipMs, untilMs);
  const self = new Map<string, { name: string; where: string; hits: number }>();
  let all = 0;
  let idle = 0;
  let gc = 0;
  for (const node of profile.nodes) {
    const hits = hitsOf.get(node.id) ?? 0;
    if (hits === 0) continue;
    all += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') idle += hits;
    if (functionName === '(garbage collector)') gc += hits;
    if (functionName === '(idle)') continue;
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${functionName}|${where}`;
    const entry = self.get(key) ?? { name: functionName || '(anonymous)', where, hits: 0 };
    entry.hits += hits;
    self.set(key, entry);
  }
  const busy = all - idle;
  const share = (hits: number) => round1((100 * hits) / Math.max(1, busy));
  const entries = [...self.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, top)
    .map((entry) => ({ name: entry.name, where: entry.where, percent: share(entry.hits) }));
  const inclusive = [...inclusiveHits(profile, hitsOf).values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, top * 3)
    .map((entry) => ({ name: entry.name, where: entry.where, percent: share(entry.hits) }));
  return { file, busySamples: busy, idlePercent: round1((100 * idle) / Math.max(1, all)), gcPercent: round1((100 * gc) / Math.max(1, busy)), entries, inclusive };
}

/** Samples in each function or anything it called (each function counted once per sample, however often it recurs), busy samples only. */
function inclusiveHits(profile: CpuProfile, hitsOf: Map<number, number>): Map<string, { name: string; where: string; hits: number }> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const totals = new Map<string, { name: string; where: string; hits: number }>();
  for (const [id, hits] of hitsOf) {
    if (hits === 0 || byId.get(id)?.callFrame.functionName === '(idle)') continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { functionName, url, lineNumber } = (byId.get(at) as ProfileNode).callFrame;
      if (functionName === '(root)') continue;
      const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
      const key = `${functionName}|${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const total = totals.get(key) ?? { name: functionName || '(anonymous)', where, hits: 0 };
      total.hits += hits;
      totals.set(key, total);
    }
  }
  return totals;
}

/** Prints a summary as the benchmarks' text output does: self time, then with `inclusive` the time in each function and what it called. */
export function printProfile(label: string, summary: ReturnType<typeof summarizeProfile>, inclusive = false): void {
  console.log(`${label}: CPU profile ${summary.file}, idle ${summary.idlePercent} % of the samples; self time as a share of the busy ones:`);
  for (const entry of summary.entries) console.log(`  ${entry.percent.toFixed(1).padStart(5)} %  ${entry.name}  ${entry.where}`);
  if (!inclusive) return;
  console.log('time in each function and what it called, as a share of the busy samples:');
  for (const entry of summary.inclusive) console.log(`  ${entry.percent.toFixed(1).padStart(5)} %  ${entry.name}  ${entry.where}`);
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Samples per node, from `skipMs` after the first sample until `untilMs` (the nodes' own hit counts when the profile has no timeline). */
function sampleCounts(profile: CpuProfile, skipMs: number, untilMs: number): Map<number, number> {
  const counts = new Map<number, number>();
  if (!profile.samples || !profile.timeDeltas) {
    for (const node of profile.nodes) counts.set(node.id, node.hitCount ?? 0);
    return counts;
  }
  let elapsedUs = 0;
  profile.samples.forEach((nodeId, i) => {
    if (i > 0) elapsedUs += profile.timeDeltas?.[i] ?? 0;
    if (elapsedUs >= skipMs * 1000 && elapsedUs < untilMs * 1000) counts.set(nodeId, (counts.get(nodeId) ?? 0) + 1);
  });
  return counts;
}

/** node_modules/<package>/… or the path under the repository, not the machine's absolute path. */
function shortUrl(url: string): string {
  const plain = url.replace(/^file:\/\//, '');
  const modules = plain.lastIndexOf('node_modules/');
  if (modules >= 0) return plain.slice(modules + 'node_modules/'.length);
  const root = path.resolve(__dirname, '../..') + path.sep;
  return plain.startsWith(root) ? plain.slice(root.length) : plain;
}
