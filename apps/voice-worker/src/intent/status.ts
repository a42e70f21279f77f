import type { ToolResult } from '../providers/llm/tool-result';

const PATHS: Record<string, readonly string[]> = {
  volume: ['audio_speaker', 'volume'],
  brightness: ['screen', 'brightness'],
  theme: ['screen', 'theme'],
  battery: ['battery', 'level'],
};

/** A value from self.get_device_status' JSON (xiaozhi §3.4: it arrives as text inside the tool result). */
export function readStatus(result: ToolResult | undefined, property: string): unknown {
  if (!result?.ok || result.result === undefined) return undefined;
  let node: unknown;
  try {
    node = JSON.parse(result.result);
  } catch {
    return undefined;
  }
  for (const key of PATHS[property] ?? []) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
