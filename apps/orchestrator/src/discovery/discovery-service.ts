import { mcpRequests, readInitializeInfo, type ListedTool } from '@fleet/protocol';
import { retriedOnDeadlock } from '@fleet/db';
import { toolNameFlags } from '@fleet/domain';
import type { PlatformEventBus } from '@fleet/platform-client';
import type { Logger } from '@fleet/telemetry';
import type { OrchestratorConfig } from '../config';
import type { DeviceRuntime } from '../devices/device-runtime';
import type { CommitQueue } from '../evidence/commit-queue';
import { discoveryRecords, type Exchange } from '../mcp/exchange';
import type { McpLink } from '../mcp/mcp-link';
import type { OrchestratorMetrics } from '../orchestrator-metrics';
import type { CatalogRepository } from './catalog-repository';
import type { CatalogView } from './catalog-view';
import type { ReadbackProposals } from './readback-proposals';
import { ToolsListPages } from './tools-list-pages';

// The gateway pages up to `max_tools_count`; a firmware registers at most a few dozen tools (xiaozhi §3.4).
const MAX_PAGES = 32;

/**
 * Discovery (DESIGN §3): `initialize` with `capabilities.vision` pointing at the platform's vision endpoint, then
 * `tools/list` with `withUserTools: true` through every page. The result is a catalog version; every exchange is
 * recorded with the version it produced.
 */
export class DiscoveryService {
  private readonly pages = new ToolsListPages();

  constructor(
    private readonly link: McpLink,
    private readonly catalogs: CatalogRepository,
    private readonly commits: CommitQueue,
    private readonly events: PlatformEventBus,
    private readonly config: OrchestratorConfig,
    private readonly metrics: OrchestratorMetrics,
    private readonly logger: Logger,
    private readonly proposals?: Pick<ReadbackProposals, 'catalogStored'>,
  ) {}

  /** Runs in the device's lane. True when the device's catalog is known for its current connection. */
  async discover(device: DeviceRuntime): Promise<boolean> {
    const connectionId = device.connectionId;
    const exchanges: Exchange[] = [];
    const send = async (build: (id: number) => ReturnType<typeof mcpRequests.initialize>) => {
      const id = await this.link.allocateId(device.mac);
      const exchange = await this.link.exchange(
        { mac: device.mac, dialect: device.dialect, connectionId },
        { ...build(id), id },
        this.config.DISCOVERY_TIMEOUT_MS,
      );
      exchanges.push(exchange);
      return exchange.outcome.kind === 'reply' ? exchange.outcome.reply : undefined;
    };

    const vision = this.config.VISION_URL
      ? {
          url: this.config.VISION_URL,
          ...(this.config.VISION_TOKEN ? { token: this.config.VISION_TOKEN } : {}),
        }
      : undefined;
    const initialized = await send((id) =>
      mcpRequests.initialize(id, {
        ...(vision ? { vision } : {}),
        clientInfo: { name: 'voice-fleet', version: '0.1.0' },
      }),
    );
    const info = initialized ? readInitializeInfo(initialized) : undefined;
    if (!info?.ok) return this.failed(device, 'initialize got no usable reply');

    const tools: ListedTool[] = [];
    const pageIds: (number | undefined)[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const reply = await send((id) =>
        mcpRequests.toolsList(id, { ...(cursor !== undefined ? { cursor } : {}), withUserTools: true }),
      );
      const known = reply ? this.pages.read(reply) : undefined;
      if (!known?.read.ok) return this.failed(device, `tools/list page ${page + 1} got no usable reply`);
      const read = known.read;
      pageIds.push(known.id);
      tools.push(...read.value.tools);
      cursor = read.value.nextCursor;
      if (cursor === undefined) break;
    }
    if (cursor !== undefined) return this.failed(device, `more than ${MAX_PAGES} tools/list pages`);

    // A unit rolled back to break a deadlock with the broker's presence batch runs again: it decides afresh from
    // what is committed.
    const records = discoveryRecords(exchanges);
    let stored;
    try {
      stored = await retriedOnDeadlock(() =>
        this.commits.submit(device.partition, (tx) =>
          this.catalogs.store(tx, {
            deviceId: device.mac,
            tools,
            hash: this.pages.catalogHash(pageIds, tools),
            serverName: info.value.serverInfo?.name,
            serverVersion: info.value.serverInfo?.version,
            protocolVersion: info.value.protocolVersion,
            exchanges: records.exchanges,
            replies: records.replies,
          }),
        ),
      );
    } catch (err) {
      // Whatever a device sent that the database refused, the discovery ends, counted, and is tried again.
      return this.failed(device, `the catalog could not be stored: ${(err as Error).message}`);
    }
    this.catalogs.committed(stored.view, records.replies);
    await this.proposePairings(device.board ?? stored.view.serverName, stored.view);
    if (device.connectionId !== connectionId) return false; // it reconnected meanwhile: discover again
    device.catalog = stored.view;
    device.discoveredOn = connectionId;
    if (info.value.serverInfo?.version) device.firmwareVersion = info.value.serverInfo.version;
    this.metrics.discoveries.inc({ outcome: stored.changed ? 'new_version' : 'unchanged' });
    if (stored.changed) {
      // Stored with each tool (catalog-repository); counted here, once per device's new version.
      for (const tool of tools)
        for (const flag of toolNameFlags(tool.name)) this.metrics.flaggedToolNames.inc({ flag });
      this.events.publish({
        type: 'catalog',
        deviceId: device.mac,
        versionId: stored.view.versionId,
        version: stored.view.version,
        at: new Date().toISOString(),
      });
    }
    return true;
  }

  private failed(device: DeviceRuntime, why: string): false {
    this.metrics.discoveries.inc({ outcome: 'failed' });
    this.logger.warn({ mac: device.mac, why }, 'discovery failed; calls keep waiting and it is retried');
    return false;
  }

  /** The pairings the catalog shows, recorded for people; a failure here leaves the discovery as it ended. */
  private async proposePairings(model: string | null | undefined, view: CatalogView): Promise<void> {
    try {
      await this.proposals?.catalogStored(model, view);
    } catch (err) {
      this.logger.warn({ err, catalog: view.hash }, 'cannot record the readback pairings a catalog shows');
    }
  }
}
