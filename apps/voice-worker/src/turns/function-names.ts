import { createHash } from 'node:crypto';

/** OpenAI-compatible APIs refuse any other function name (400). */
export const FUNCTION_NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Device tool names (`self.audio_speaker.set_volume`) ↔ function names the LLM may see
 * (`self_audio_speaker_set_volume`). Readable where possible: every other character becomes `_`. Where two tools
 * would meet on one name, or a name must be shortened to 64, each such tool gets a suffix from the sha256 of its
 * own name, so the mapping depends only on the set of names, never on their order: the same catalog always maps
 * the same way, and each direction is a table lookup.
 */
export class FunctionNames {
  private readonly toFunction = new Map<string, string>();
  private readonly toTool = new Map<string, string>();

  constructor(toolNames: Iterable<string>) {
    // Valid names first, then the rest, each in code-point order: assignment never depends on catalog order.
    const names = [...new Set(toolNames)].sort(
      (a, b) => Number(!FUNCTION_NAME_RULE.test(a)) - Number(!FUNCTION_NAME_RULE.test(b)) || (a < b ? -1 : 1),
    );
    const bases = new Map<string, string[]>();
    for (const name of names) {
      const base = readable(name);
      bases.set(base, [...(bases.get(base) ?? []), name]);
    }
    for (const name of names) {
      const base = readable(name);
      const shared = bases.get(base)!.length > 1;
      // A name that is already valid keeps itself; the others step aside when they meet it or each other.
      const keep = FUNCTION_NAME_RULE.test(name) || (!shared && base.length <= 64);
      this.assign(name, keep ? (FUNCTION_NAME_RULE.test(name) ? name : base) : hashed(base, name, 8));
    }
  }

  functionOf(tool: string): string | undefined {
    return this.toFunction.get(tool);
  }

  /** The device tool behind a function name; undefined for a name the model made up. */
  toolOf(fn: string): string | undefined {
    return this.toTool.get(fn);
  }

  private assign(tool: string, fn: string): void {
    // A suffixed name could still meet a tool literally called that: lengthen the hash until it does not.
    let candidate = fn;
    for (let length = 12; this.toTool.has(candidate) && length <= 64; length += 4) {
      candidate = hashed(readable(tool), tool, length);
    }
    this.toFunction.set(tool, candidate);
    this.toTool.set(candidate, tool);
  }
}

function readable(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
}

function hashed(base: string, name: string, length: number): string {
  const suffix = createHash('sha256').update(name).digest('hex').slice(0, length);
  return `${base.slice(0, 63 - suffix.length)}_${suffix}`;
}
