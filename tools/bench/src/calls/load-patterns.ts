import { performance } from 'node:perf_hooks';
import type { CallOutcome } from './call-client';

/** Asks for one call to a device; `k` numbers the calls of a phase (it picks arguments such as the volume). */
export type CallOne = (deviceId: string, k: number) => Promise<CallOutcome>;

/**
 * A fleet-wide call, `rounds` times: every device has one call outstanding, and its next one is asked for as
 * soon as the previous one is sealed (one call in flight per device is the platform's own rule, DESIGN §4).
 * The platform is saturated: the figure is its throughput, and latency includes the queue in front of it.
 */
export async function fleetWide(
  devices: readonly string[],
  rounds: number,
  call: CallOne,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  await Promise.all(
    devices.map(async (device, i) => {
      for (let r = 0; r < rounds; r++) outcomes.push(await call(device, r * devices.length + i));
    }),
  );
  return outcomes;
}

/** One call at a time, each asked for once the previous one is sealed: latency without any queue. */
export async function oneAtATime(
  devices: readonly string[],
  count: number,
  call: CallOne,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  for (let k = 0; k < count; k++) outcomes.push(await call(devices[k % devices.length]!, k));
  return outcomes;
}

/**
 * An open loop: calls asked for at a fixed rate whatever the platform does (a slow platform is not allowed to slow
 * the arrivals down, as a closed loop would: that would hide its latency). Devices are taken in turn, so one
 * device is called again only after every other one was.
 */
export async function fixedRate(
  devices: readonly string[],
  perSecond: number,
  seconds: number,
  call: CallOne,
): Promise<{ outcomes: CallOutcome[]; offeredPerSecond: number }> {
  const total = Math.round(perSecond * seconds);
  const pending: Promise<CallOutcome>[] = [];
  const started = performance.now();
  let k = 0;
  while (k < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * perSecond) + 1);
    for (; k < due; k++) pending.push(call(devices[k % devices.length]!, k));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const offeredSeconds = (performance.now() - started) / 1000;
  return { outcomes: await Promise.all(pending), offeredPerSecond: total / offeredSeconds };
}
