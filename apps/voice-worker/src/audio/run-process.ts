import { spawn } from 'node:child_process';

/**
 * Runs a Debian tool (espeak-ng, sox, pocketsphinx) with `input` on stdin and returns its stdout. A tool that
 * fails, or outlives `timeoutMs`, rejects with its stderr, so a turn can store why it failed.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  { input, timeoutMs = 15_000 }: { input?: Buffer; timeoutMs?: number } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${command} could not run: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(out));
      const why = signal ? `was killed (${signal})` : `exited with ${code}`;
      reject(new Error(`${command} ${why}: ${Buffer.concat(err).toString().trim().slice(0, 300)}`));
    });
    // A tool that exits before reading all of stdin (bad arguments) must not crash us with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
