import type { FuzzPlatform } from './fuzz-platform';

interface Asked {
  device: string;
  verdict: Promise<string>;
}

/**
 * Calls to devices nobody fuzzes, asked a few times a second while the fuzzers run: whatever a stranger sends,
 * these must still be verified (DESIGN §1), none lost.
 */
export class Bystanders {
  private asked: Asked[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly platform: FuzzPlatform,
    private readonly devices: { id: string; tool: string; verdicts: readonly string[] }[],
    private readonly everyMs = 300,
  ) {}

  start(): void {
    this.round();
    this.timer = setInterval(() => this.round(), this.everyMs);
  }

  /**
   * Asks each device once now. A target starts with one round so that its cases always run with calls in flight,
   * even when all of them end within one interval (a quiet machine runs a target's 12 cases in under 300 ms).
   */
  round(): void {
    for (const d of this.devices) {
      const verdict = this.platform.callAndSeal(d.id, d.tool, {}, 3_000);
      verdict.catch(() => undefined); // read by settle()
      this.asked.push({ device: d.id, verdict });
    }
  }

  /** Waits for every call asked so far; names those that did not end as they should. */
  async settle(): Promise<{ asked: number; wrong: string[] }> {
    const asked = this.asked.splice(0);
    const wrong: string[] = [];
    for (const { device, verdict } of asked) {
      const expected = this.devices.find((d) => d.id === device)!.verdicts;
      const got = await verdict.catch((err: Error) => `lost (${err.message})`);
      if (!expected.includes(got)) wrong.push(`${device}: ${got}`);
    }
    return { asked: asked.length, wrong };
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
