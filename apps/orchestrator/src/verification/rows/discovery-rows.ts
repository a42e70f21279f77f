import type { DiscoveryPayload } from '@fleet/domain';
import type { CatalogTool, CatalogView } from '../../discovery/catalog-view';

// Discovery rows (DESIGN §1: what the platform knew of the device and its tool when it decided). A row for a
// stage that did not happen still exists and says why.

type DeviceFacts = { board: string | null; firmwareVersion: string | null };

export function discoveryRow(
  device: DeviceFacts,
  catalog: CatalogView | undefined,
  tool:
    CatalogTool | { name: string; description: string; inputSchema: unknown; userOnly: boolean } | undefined,
  sensitive: boolean,
): DiscoveryPayload {
  return {
    board: device.board,
    firmwareVersion: device.firmwareVersion,
    catalog: catalog
      ? {
          versionId: catalog.versionId,
          version: catalog.version,
          hash: catalog.hash,
          discoveredAt: catalog.discoveredAt,
        }
      : null,
    tool: tool
      ? {
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          userOnly: tool.userOnly,
          sensitive,
        }
      : null,
    ...(catalog ? {} : { note: 'the device was not discovered (offline or not back before the deadline)' }),
  };
}

/** An announcement's: alert and tts are firmware messages, no tool of the catalog (xiaozhi §2.2). */
export function announcementDiscovery(device: DeviceFacts & { dialect: string }): DiscoveryPayload {
  return {
    board: device.board,
    firmwareVersion: device.firmwareVersion,
    dialect: device.dialect,
    catalog: null,
    tool: null,
    note: 'an announcement needs no tool catalog: alert and tts are firmware messages (xiaozhi §2.2)',
  };
}

/** A call sealed before anything of its device was looked at: the note is the verdict and its reason. */
export function discoveryNotReached(why: string): DiscoveryPayload {
  return { board: null, firmwareVersion: null, catalog: null, tool: null, note: why };
}
