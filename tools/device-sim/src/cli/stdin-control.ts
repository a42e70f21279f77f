import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { Fleet } from '../fleet/fleet';

const knobsSchema = z
  .object({
    dropReplies: z.number().min(0).max(1),
    replyDelayMs: z.number().min(0),
    lie: z.boolean(),
    brokenJson: z.number().min(0).max(1),
    failUpgrades: z.boolean(),
    rollbackUpgrades: z.enum(['before-check-in', 'after-check-in', 'unconfirmed']).optional(),
    flapEveryMs: z.number().min(0),
  })
  .partial()
  .strict();

const commandSchema = z.union([
  z.object({ faults: knobsSchema, mac: z.string().optional() }).strict(),
  z.object({ reboot: z.string() }).strict(),
  z.object({ flap: z.string() }).strict(),
  z.object({ powerCycle: z.string() }).strict(),
  z.object({ eraseNvs: z.string() }).strict(),
]);

/**
 * Run-time control of a running fleet, one JSON object per line on stdin:
 * `{"faults":{"lie":true}}` (fleet-wide) or with `"mac"`; `{"reboot":"<mac>|all"}`; `{"flap":…}`; `{"powerCycle":…}`;
 * `{"eraseNvs":…}` (a new Client-Id, as after an erased flash).
 */
export function attachStdinControl(fleet: Fleet, say: (line: string) => void): void {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    let command: z.infer<typeof commandSchema>;
    try {
      command = commandSchema.parse(JSON.parse(line));
    } catch (err) {
      say(`ignored: ${(err as Error).message.split('\n')[0] ?? ''}`);
      return;
    }
    const pick = (mac: string) =>
      mac === 'all' ? fleet.devices : [fleet.byMac(mac)].filter((d) => d !== undefined);
    if ('faults' in command) {
      if (command.mac === undefined) fleet.setFaults(command.faults);
      else for (const d of pick(command.mac)) d.setFaults(command.faults);
    } else if ('reboot' in command) for (const d of pick(command.reboot)) d.reboot();
    else if ('flap' in command) for (const d of pick(command.flap)) d.flap();
    else if ('eraseNvs' in command) for (const d of pick(command.eraseNvs)) d.eraseNvs();
    else for (const d of pick(command.powerCycle)) d.powerCycle();
    say(`ok: ${line}`);
  });
}
