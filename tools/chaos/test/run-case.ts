import type { ChaosPlatform } from './chaos-platform';
import {
  callFacts,
  campaignFacts,
  secondsToRecover,
  startCampaign,
  turnFacts,
  waitSettled,
} from './case-facts';
import { tally, type CaseResult } from './tally';
import { Workload } from './workload';

/** One fault: what it breaks, and how the case waits for it to have taken hold and then heals it. */
export interface FaultCase {
  name: string;
  /** Breaks something; resolves once the fault is in force (a cut link, a dead process). */
  inject(p: ChaosPlatform): Promise<void>;
  /** Resolves once it is undone (restarted, restored); recovery is timed from then. */
  heal(p: ChaosPlatform): Promise<void>;
}

let campaigns = 0;

/**
 * Load on (calls, voice turns, a campaign), the fault, its healing, then: how long until a new call is verified,
 * and, once everything settled, what was asked, sealed, lost or sent twice.
 */
export async function runCase(
  p: ChaosPlatform,
  fault: FaultCase,
  hold: () => Promise<void>,
): Promise<CaseResult> {
  const since = new Date();
  const campaignId = await startCampaign(p, 20 + (++campaigns % 60));
  const load = new Workload(() => p.apiUrl(), p.operatorKey, p.fleet);
  load.start();
  await waitForAccepted(load);
  await fault.inject(p);
  await hold();
  await fault.heal(p);
  const recoverySeconds = await secondsToRecover(p).catch((err: Error) => {
    throw new Error(`${err.message}\n${serviceLogs(p)}`);
  });
  await load.stop();
  await waitSettled(p, load.calls, load.turns, campaignId);
  return tally({
    name: fault.name,
    calls: load.calls,
    callRows: await callFacts(p, since),
    turns: load.turns,
    turnRows: await turnFacts(
      p,
      load.turns.flatMap((t) => (t.id ? [t.id] : [])),
    ),
    campaign: await campaignFacts(p, campaignId),
    recoverySeconds,
  });
}

/** Calls in flight before the fault: a few accepted first. */
async function waitForAccepted(load: Workload): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (load.calls.filter((c) => c.id).length < 3 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the services said lately, warnings and worse: why a platform did not recover. */
function serviceLogs(p: ChaosPlatform): string {
  return (['broker', 'orchestrator', 'voice-worker', 'admin-api'] as const)
    .map((name) => {
      const lines = p
        .service(name)
        .logs.filter((l) => !l.includes('"level":30'))
        .slice(-15)
        .map((l) => l.slice(0, 400));
      return `${name}:\n${lines.join('\n')}`;
    })
    .join('\n');
}
