import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withMarkedSection } from '@fleet/testing';
import { startChaosPlatform, type ChaosPlatform } from './chaos-platform';
import { LINKS, SERVICES } from './links';
import { reliabilityReport } from './reliability-report';
import { runCase, type FaultCase } from './run-case';
import { strangerFramesCase } from './stranger-frames';
import type { CaseResult } from './tally';

// `npm run chaos`: every fault, one at a time, on a platform with a Postgres cluster of its own (so it can be
// restarted), then docs/RELIABILITY.md. Skipped in `npm test` (minutes long); faults.spec.ts is the short run.
const LONG = process.env['CHAOS_LONG'] === '1';
const DEVICES = Number(process.env['CHAOS_DEVICES'] ?? 8);
/** How long a cut link stays cut: the fault's length is the experiment, not a wait for something. */
const CUT_MS = Number(process.env['CHAOS_CUT_MS'] ?? 5_000);
const REPORT = join(__dirname, '../../../docs/RELIABILITY.md');

const hold = (ms: number) => () => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A fault, how long it is held, and (for some) what else must hold besides the bar. */
interface LongCase {
  fault: FaultCase;
  holdMs: number;
  /** Undefined when it held; else what did not (a note in docs/RELIABILITY.md, and the case fails). */
  broke?: () => string | undefined;
}

function cases(): LongCase[] {
  const kills = SERVICES.map((name) => ({
    fault: {
      name: `${name} SIGKILLed and restarted`,
      inject: (p: ChaosPlatform) => p.kill(name),
      heal: (p: ChaosPlatform) => p.start(name),
    },
    holdMs: 1_000,
  }));
  const cuts = LINKS.map(({ service, dependency }) => ({
    fault: {
      name: `${service}'s link to ${dependency} cut for ${CUT_MS / 1000} s`,
      inject: (p: ChaosPlatform) => p.links.cut(service, dependency),
      heal: (p: ChaosPlatform) => p.links.restore(service, dependency),
    },
    holdMs: CUT_MS,
  }));
  const stranger = strangerFramesCase();
  return [
    ...kills,
    {
      fault: stranger.fault,
      holdMs: 0,
      broke: () =>
        stranger.brokerDied() ? 'the broker died on the frames (restarted by the suite)' : undefined,
    },
    {
      fault: {
        name: 'Redis restarted (empty)',
        inject: (p) => p.redis.restart(),
        heal: () => Promise.resolve(),
      },
      holdMs: 0,
    },
    {
      fault: {
        name: 'Postgres restarted',
        inject: (p) => p.postgres.restart!(),
        heal: () => Promise.resolve(),
      },
      holdMs: 0,
    },
    ...cuts,
  ];
}

(LONG ? describe : describe.skip)('the long fault suite (npm run chaos)', () => {
  let p: ChaosPlatform;
  const results: CaseResult[] = [];
  const load = execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/.*load average: /, '');

  beforeAll(async () => {
    p = await startChaosPlatform({ devices: DEVICES, privatePostgres: true });
  }, 180_000);

  afterAll(async () => {
    await p?.close();
    if (results.length > 0) {
      const section = reliabilityReport(results, {
        date: new Date().toISOString().slice(0, 16),
        load,
        devices: DEVICES,
      });
      writeFileSync(REPORT, withMarkedSection(readFileSync(REPORT, 'utf8'), 'chaos', section));
      console.log(`chaos: wrote ${REPORT}`);
    }
  }, 60_000);

  const only = process.env['CHAOS_CASES'] ? new RegExp(process.env['CHAOS_CASES']) : undefined;
  for (const { fault, holdMs, broke } of cases().filter((c) => !only || only.test(c.fault.name))) {
    it(`survives: ${fault.name}`, async () => {
      const result = await runCase(p, fault, hold(holdMs));
      const broken = broke?.();
      if (broken) result.notes.push(broken);
      results.push(result);
      console.log(`chaos: ${JSON.stringify(result)}`);
      expect({ lost: result.callsLost, sentTwice: result.callsSentTwice, broken }).toEqual({
        lost: 0,
        sentTwice: 0,
        broken: undefined,
      });
    }, 300_000);
  }
});
