import type { ChildProcess } from 'node:child_process';

/** Resolves with the exit code (or the signal's name) once the child has exited. */
export function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
}

/** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<number | string> {
  const done = exited(child);
  if (child.exitCode !== null || child.signalCode !== null) return done;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const code = await done;
  clearTimeout(timer);
  return code;
}

/** The next IPC message of `type` from a forked child; rejects if the child exits first. */
export function nextMessage<T extends { type: string }>(
  child: ChildProcess,
  type: T['type'],
  timeoutMs = 15 * 60_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (message.type !== type) return;
      cleanup();
      resolve(message as T);
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(new Error(`child exited (${code ?? signal}) while waiting for "${type}"`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no "${type}" from the child within ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
