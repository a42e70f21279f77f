import { busyHoldOf, holdForConversation, type Database } from '@fleet/db';
import { busyLockOutcome, type BusyLockOutcome } from '@fleet/domain';
import { Counter, Gauge, type Logger, type Registry } from '@fleet/telemetry';
import type { Recipe } from '../verification/recipes';
import type { CallRecord } from './call-record';

export interface BusyLockPorts {
  db: Database;
  /** Which of these devices are in a voice session now (the broker's `voice:active`). */
  inConversation: (deviceIds: string[]) => Promise<Set<string>>;
  /** Runs a held call again (its lane decides and, the conversation over, sends it). */
  wake: (callId: string, deviceId: string) => void;
  logger: Logger;
  /** How often held calls' devices are looked at again. */
  everyMs: number;
  registry: Registry;
}

/**
 * The busy lock (DESIGN §4): a reboot or an upgrade ready to go while its device is in a conversation waits for
 * the conversation to end. The hold is a row (when it began, any override), so a replica that takes the call over
 * knows how long it waited; the list of held calls in memory only says whose devices to look at again, and a call
 * it lost is still woken by its device's presence and, at worst, at its deadline by the sweep.
 */
export class BusyLock {
  private readonly held = new Map<string, { deviceId: string; deadlineAt: number }>();
  private timer: NodeJS.Timeout | undefined;
  private looking = false;
  private readonly outcomes: Counter<'outcome'>;

  constructor(private readonly ports: BusyLockPorts) {
    const held = this.held;
    new Gauge({
      name: 'orchestrator_busy_lock_held_calls',
      help: 'Reboots and upgrades this replica holds until their device ends its conversation',
      registers: [ports.registry],
      collect() {
        this.set(held.size);
      },
    });
    this.outcomes = new Counter({
      name: 'orchestrator_busy_lock_total',
      help: 'Reboots and upgrades met by the busy lock, by outcome (free, hold, overridden, deadline_passed)',
      labelNames: ['outcome'],
      registers: [ports.registry],
    });
  }

  start(): void {
    this.timer = setInterval(() => void this.lookAgain(), this.ports.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.held.clear();
  }

  /** Undefined for a call the lock does not concern (only what restarts the device cuts a conversation off). */
  async check(call: CallRecord, recipe: Recipe): Promise<BusyLockOutcome | undefined> {
    if (recipe.kind !== 'reboot' && recipe.kind !== 'upgrade') return undefined;
    const now = new Date();
    const [busy, stored] = await Promise.all([
      this.ports.inConversation([call.deviceId]),
      busyHoldOf(this.ports.db, call.id),
    ]);
    const inConversation = busy.has(call.deviceId);
    const hold =
      inConversation && !stored?.heldSince && !stored?.override
        ? await holdForConversation(this.ports.db, call.id, call.deviceId, now)
        : stored;
    const outcome = busyLockOutcome({
      inConversation,
      now,
      deadlineAt: call.deadlineAt,
      ...(hold?.heldSince ? { heldSince: hold.heldSince } : {}),
      ...(hold?.override ? { override: hold.override } : {}),
    });
    // A call looked at again while held counts once, when its hold began.
    if (outcome.kind !== 'hold' || !this.held.has(call.id)) this.outcomes.inc({ outcome: outcome.kind });
    if (outcome.kind === 'hold')
      this.held.set(call.id, { deviceId: call.deviceId, deadlineAt: call.deadlineAt.getTime() });
    else this.held.delete(call.id);
    return outcome;
  }

  /** Wakes the held calls whose conversation ended or whose deadline came. */
  async lookAgain(): Promise<void> {
    if (this.looking || this.held.size === 0) return;
    this.looking = true;
    try {
      const entries = [...this.held];
      const busy = await this.ports.inConversation([...new Set(entries.map(([, h]) => h.deviceId))]);
      const now = Date.now();
      for (const [callId, h] of entries) {
        if (busy.has(h.deviceId) && now <= h.deadlineAt) continue;
        this.held.delete(callId);
        this.ports.wake(callId, h.deviceId);
      }
    } catch (err) {
      this.ports.logger.warn({ err }, 'cannot look at the conversations of held calls; trying again');
    } finally {
      this.looking = false;
    }
  }
}
