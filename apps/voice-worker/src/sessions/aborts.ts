/**
 * A device's `abort` (xiaozhi §2.1: the user interrupts the reply) reaches every worker over MQTT; the one
 * speaking to that session stops. Replies register while they speak.
 */
export class Aborts {
  private readonly speaking = new Map<string, Set<AbortController>>();

  register(sessionId: string): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    const set = this.speaking.get(sessionId) ?? new Set();
    set.add(controller);
    this.speaking.set(sessionId, set);
    return {
      signal: controller.signal,
      release: () => {
        set.delete(controller);
        if (set.size === 0) this.speaking.delete(sessionId);
      },
    };
  }

  abort(sessionId: string, reason: string): void {
    this.speaking.get(sessionId)?.forEach((c) => c.abort(new Error(reason)));
  }
}
