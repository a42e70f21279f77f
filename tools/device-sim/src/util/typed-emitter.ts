import { EventEmitter } from 'node:events';

/** Event name → listener arguments. */
export type EventMap<E> = { [K in keyof E]: unknown[] };

/**
 * A typed facade over EventEmitter with a promise helper for tests (`next`). The EventEmitter is created on the
 * first listener, so 10,000 devices nobody listens to cost nothing here.
 */
export class TypedEmitter<E extends EventMap<E>> {
  private emitter: EventEmitter | undefined;

  on<K extends keyof E & string>(event: K, listener: (...args: E[K]) => void): () => void {
    this.ensure().on(event, listener as (...args: unknown[]) => void);
    return () => this.off(event, listener);
  }

  once<K extends keyof E & string>(event: K, listener: (...args: E[K]) => void): () => void {
    this.ensure().once(event, listener as (...args: unknown[]) => void);
    return () => this.off(event, listener);
  }

  off<K extends keyof E & string>(event: K, listener: (...args: E[K]) => void): void {
    this.emitter?.off(event, listener as (...args: unknown[]) => void);
  }

  emit<K extends keyof E & string>(event: K, ...args: E[K]): void {
    this.emitter?.emit(event, ...args);
  }

  /** The next `event` (matching `filter`), or a rejection naming it after `timeoutMs`. */
  next<K extends keyof E & string>(
    event: K,
    { timeoutMs = 10_000, filter }: { timeoutMs?: number; filter?: (...args: E[K]) => boolean } = {},
  ): Promise<E[K]> {
    return new Promise((resolve, reject) => {
      const listener = (...args: E[K]) => {
        if (filter && !filter(...args)) return;
        clearTimeout(timer);
        this.off(event, listener);
        resolve(args);
      };
      const timer = setTimeout(() => {
        this.off(event, listener);
        reject(new Error(`no '${event}' event within ${timeoutMs} ms`));
      }, timeoutMs);
      this.on(event, listener);
    });
  }

  private ensure(): EventEmitter {
    if (!this.emitter) {
      this.emitter = new EventEmitter();
      this.emitter.setMaxListeners(0);
    }
    return this.emitter;
  }
}
