import type { Dialect } from '@fleet/protocol';
import type { CatalogView } from '../discovery/catalog-view';
import { Lane } from './lane';

export interface FreshResult {
  at: number;
  callId: string;
  result: unknown;
}

/** What the owning replica keeps in memory about one of its devices. The database remains the record. */
export class DeviceRuntime {
  readonly lane = new Lane();
  online = false;
  connectionId: string | undefined;
  onlineAt: Date | undefined;
  dialect: Dialect = 'xiaozhi';
  /** What the device last said it is (boot report, discovery): for the discovery evidence row. */
  board: string | null = null;
  firmwareVersion: string | null = null;
  catalog: CatalogView | undefined;
  /** The connection discovery last completed on: a new connection means the device may have changed. */
  discoveredOn: string | undefined;
  /** When discovery last started (a device that does not answer is retried, not hammered). */
  discoveryStartedAt = 0;
  /** Last successful results per tool, for ordering rules ("status fresher than T"). */
  readonly fresh = new Map<string, FreshResult>();
  private readonly presenceWatchers = new Set<() => void>();

  constructor(
    readonly mac: string,
    readonly partition: number,
  ) {}

  get ready(): boolean {
    return this.online && this.catalog !== undefined && this.discoveredOn === this.connectionId;
  }

  /** Called on every presence change; effect checks (reboot, upgrade) wait on it. */
  onPresence(watcher: () => void): () => void {
    this.presenceWatchers.add(watcher);
    return () => this.presenceWatchers.delete(watcher);
  }

  notifyPresence(): void {
    for (const watcher of [...this.presenceWatchers]) watcher();
  }
}
