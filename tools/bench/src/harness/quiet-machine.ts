import { cpus } from 'node:os';
import { machineBusySeconds } from './proc-stats';
import { say } from './report';

/**
 * Other work on this machine (another session's tests) skews every figure. Waits, up to `timeoutMs`, for three
 * seconds in a row in which the machine is at most `maxBusy` busy (0..1 of all cores); returns the last share.
 * Each result also reports the CPU the rest of the machine used while it was measured (`other`).
 */
export async function waitForQuietMachine(maxBusy = 0.25, timeoutMs = 2 * 60_000): Promise<number> {
  const cores = cpus().length;
  const deadline = Date.now() + timeoutMs;
  let said = false;
  let quietSeconds = 0;
  for (;;) {
    const [before, started] = [machineBusySeconds(), Date.now()];
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const busy = (machineBusySeconds() - before) / cores / ((Date.now() - started) / 1000);
    quietSeconds = busy <= maxBusy ? quietSeconds + 1 : 0;
    if (quietSeconds >= 3) return busy;
    if (busy <= maxBusy) continue;
    if (Date.now() > deadline) {
      say(`machine still ${(busy * 100).toFixed(0)} % busy; measuring anyway (figures will be low)`);
      return busy;
    }
    if (!said) say(`machine ${(busy * 100).toFixed(0)} % busy with other work; waiting for it to calm down`);
    said = true;
  }
}
