// Just enough of the Dockerfile syntax to read deploy/Dockerfile back: stages, their instructions, line
// continuations, comments, exec-form commands. Docker itself does not run on these machines (env/machines/node-svc.md),
// so the tests repeat what the runtime stage does from what this parser reads.

export interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuations joined. */
  args: string;
  line: number;
}

export interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARG lines before the first FROM. */
  globalArgs: Instruction[];
  stages: Stage[];
}

export function parseDockerfile(text: string): Dockerfile {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const first = i + 1;
    let line = lines[i]!;
    if (/^\s*(#|$)/.test(line)) continue;
    while (/\\\s*$/.test(line) && i + 1 < lines.length) {
      i++;
      const next = lines[i]!;
      if (/^\s*#/.test(next)) continue; // a comment inside a continuation is dropped, as Docker does
      line = line.replace(/\s*\\\s*$/, ' ') + next.trim();
    }
    const match = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!match) throw new Error(`Dockerfile line ${first}: cannot read "${line}"`);
    instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!.trim(), line: first });
  }
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [from, as, name] = instruction.args.split(/\s+/);
      stages.push({ from: from!, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`${instruction.keyword} before the first FROM`);
      globalArgs.push(instruction);
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

export function stageNamed(dockerfile: Dockerfile, name: string): Stage {
  const stage = dockerfile.stages.find((s) => s.name === name);
  if (!stage) throw new Error(`no stage named ${name}`);
  return stage;
}

/** CMD/ENTRYPOINT in exec form (a JSON array); the shell form is refused, since it puts a shell in front of node. */
export function execForm(instruction: Instruction): string[] {
  const parsed: unknown = JSON.parse(instruction.args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) {
    throw new Error(`${instruction.keyword} on line ${instruction.line} is not in exec form`);
  }
  return parsed;
}

export interface CopyArgs {
  from: string | undefined;
  sources: string[];
  destination: string;
}

export function copyArgs(instruction: Instruction): CopyArgs {
  const words = instruction.args.split(/\s+/);
  let from: string | undefined;
  while (words[0]?.startsWith('--')) {
    const flag = words.shift()!;
    if (flag.startsWith('--from=')) from = flag.slice('--from='.length);
  }
  const destination = words.pop();
  if (!destination || words.length === 0) throw new Error(`COPY on line ${instruction.line} has no source`);
  return { from, sources: words, destination };
}

/** RUN without its BuildKit flags (--mount=…, --network=…). */
export function runCommand(instruction: Instruction): string {
  return instruction.args.replace(/^(--[a-z]+=\S+\s+)+/, '');
}

/** ENV KEY=VALUE … (the unquoted form this project uses). */
export function envPairs(instruction: Instruction): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const word of instruction.args.split(/\s+/)) {
    const at = word.indexOf('=');
    if (at <= 0) throw new Error(`ENV on line ${instruction.line}: use KEY=VALUE`);
    pairs[word.slice(0, at)] = word.slice(at + 1);
  }
  return pairs;
}
