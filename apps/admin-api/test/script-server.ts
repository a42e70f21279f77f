import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface ScriptServer<T> {
  /** What the script printed as its first line (JSON): where it listens and what it made. */
  started: T;
  stop(): Promise<void>;
}

/**
 * A test server written as a plain Node script (an ES module, so not under Jest's module system): started as a
 * child, ready once it prints one JSON line. Its stderr (development warnings) is shown only if it fails to start.
 */
export async function startScriptServer<T>(script: string, args: string[]): Promise<ScriptServer<T>> {
  const child: ChildProcess = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let ready = false;
  const exited = once(child, 'exit').then(([code]) => {
    // Only before it started: afterwards, exiting is what stop() asks of it.
    if (!ready) throw new Error(`${script} exited with ${String(code)}: ${stderr}`);
    return [''];
  });
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout! }), 'line'), exited])) as [
    string,
  ];
  ready = true;
  return {
    started: JSON.parse(line) as T,
    async stop() {
      if (child.exitCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await gone;
    },
  };
}
