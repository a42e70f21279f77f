/**
 * A device's serial lane: everything that talks to one device (discovery, calls, their readbacks) runs one at a
 * time, in arrival order (DESIGN §4: one call in flight per device). Within a replica this is the whole story;
 * across replicas the partition lease makes this replica the only one with a lane for the device.
 */
export class Lane {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(task, task);
    this.tail = result.then(
      () => this.pending--,
      () => this.pending--,
    );
    return result;
  }

  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves once everything queued so far has finished. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
