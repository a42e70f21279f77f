/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) that a self-time summary needs. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  /** Share of the time the process was not idle (0..1). */
  share: number;
}

export interface ProfileSummary {
  /** Sampled time the process was busy (the `(idle)` and `(program)` samples left out). */
  busyMs: number;
  functions: SelfTime[];
  /** Self time by where the code lives: a package under node_modules, the project's own file, or a V8 entry. */
  places: SelfTime[];
}

const IDLE = new Set(['(idle)', '(program)']);

/** Self time by function and by package: where a process spends its CPU, without a flame graph viewer. */
export function summarizeCpuProfile(profile: CpuProfile, top = 25): ProfileSummary {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    if (!frame || IDLE.has(frame.functionName)) return;
    busyUs += us;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    const place = placeOf(frame);
    places.set(place, (places.get(place) ?? 0) + us);
  });
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        ms: Math.round(us / 100) / 10,
        share: Math.round((us / busyUs) * 1000) / 1000,
      }));
  return { busyMs: Math.round(busyUs / 1000), functions: rank(functions), places: rank(places) };
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(dist + '/dist/'.length) : url.replace(/^file:\/\//, '');
}

function placeOf(frame: { functionName: string; url: string }): string {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const modules = frame.url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = frame.url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (frame.url.startsWith('node:')) return 'node core';
  const dist = frame.url.indexOf('/dist/');
  return dist >= 0 ? frame.url.slice(dist + '/dist/'.length) : frame.url;
}
