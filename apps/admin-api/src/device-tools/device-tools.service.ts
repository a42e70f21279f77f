import { Injectable } from '@nestjs/common';
import { roleAllows } from '@fleet/auth';
import {
  markingsOf,
  PLATFORM_TOOLS,
  profileFor,
  TOOL_NAME_FLAGS,
  toolNameFlags,
  toolSensitivity,
} from '@fleet/domain';
import type { z } from 'zod';
import { DevicesRepository } from '../devices/devices.repository';
import type { Actor } from '../http/actor';
import { forbidden, notFound } from '../http/api-error';
import { diffCatalogs, type CatalogDiff } from './catalog-diff';
import {
  DeviceToolsRepository,
  type CatalogVersionRow,
  type MarkingChange,
  type MarkingRow,
  type OrderingRuleRow,
} from './device-tools.repository';
import type { toolView } from './device-tools.schemas';

type ToolView = z.infer<typeof toolView>;

export interface DeviceCatalogView {
  deviceId: string;
  catalog: Omit<CatalogVersionRow, 'diff' | 'catalogId' | 'current'> | null;
  tools: ToolView[];
  platformTools: ToolView[];
  /** Markings of tools the current catalog does not declare (kept for when it does). */
  otherMarkings: MarkingRow[];
  orderingRules: OrderingRuleRow[];
}

@Injectable()
export class DeviceToolsService {
  constructor(
    private readonly tools: DeviceToolsRepository,
    private readonly devices: DevicesRepository,
  ) {}

  async catalog(deviceId: string): Promise<DeviceCatalogView> {
    await this.mustExist(deviceId);
    const version = await this.tools.currentVersion(deviceId);
    const [tools, markings, rules, profiled] = await Promise.all([
      version ? this.tools.tools(version.catalogId) : Promise.resolve([]),
      this.tools.markings(deviceId),
      this.tools.orderingRules(version?.catalogId),
      this.tools.profilesOfModel(deviceId),
    ]);
    const device = { board: profiled.board, serverName: version?.serverName, catalogHash: version?.hash };
    const byTool = new Map(markings.map((m) => [m.toolName, m]));
    const names = new Set([...tools.map((t) => t.name), ...PLATFORM_TOOLS.map((t) => t.name)]);
    const view = (
      t: Omit<
        ToolView,
        'sensitive' | 'readOnly' | 'gated' | 'gatedBecause' | 'gatedByDefault' | 'nameFlags' | 'profileKind'
      > & {
        nameFlags: string[];
      },
    ): ToolView => {
      const marking = byTool.get(t.name);
      const profile = profileFor(profiled.profiles, device, t.name);
      // DESIGN §4: the one tool-access rule (libs/domain), with its reason; the device's marking, else its profile.
      const marks = markingsOf(profile, {
        sensitive: marking?.sensitive ?? undefined,
        readOnly: marking?.readOnly ?? undefined,
      });
      const gate = toolSensitivity(t, marks.sensitive);
      return {
        ...t,
        nameFlags: TOOL_NAME_FLAGS.filter((f) => t.nameFlags.includes(f)),
        sensitive: marking?.sensitive ?? false,
        readOnly: marking?.readOnly ?? null,
        profileKind: profile?.kind ?? null,
        gated: gate.sensitive,
        gatedByDefault: gate.byDefault ?? null,
        ...(gate.reason ? { gatedBecause: gate.reason } : {}),
      };
    };
    return {
      deviceId,
      catalog: version ? withoutInternals(version) : null,
      tools: tools.map(view),
      platformTools: PLATFORM_TOOLS.map((t, i) =>
        view({
          ...t,
          position: -1 - i,
          inputSchema: t.inputSchema,
          outputSchema: null,
          annotations: null,
          nameFlags: toolNameFlags(t.name),
        }),
      ),
      otherMarkings: markings.filter((m) => !names.has(m.toolName)),
      // A rule is in force here when the tool it governs is one this device has.
      orderingRules: rules.filter((r) => names.has(r.tool)),
    };
  }

  /** Anyone who may call may make a tool stricter; lifting a marking loosens the gate, which is an admin's call. */
  async mark(actor: Actor, deviceId: string, toolName: string, change: MarkingChange): Promise<MarkingRow> {
    if (change.sensitive === false && !roleAllows(actor.role, 'admin')) {
      throw forbidden('role_required', 'only an admin may lift a sensitive marking');
    }
    await this.mustExist(deviceId);
    return this.tools.mark(deviceId, toolName, change, actor.operatorId);
  }

  async versions(deviceId: string): Promise<CatalogVersionRow[]> {
    await this.mustExist(deviceId);
    return this.tools.versions(deviceId);
  }

  async diff(
    deviceId: string,
    from?: number,
    to?: number,
  ): Promise<CatalogDiff & { from: number; to: number }> {
    const versions = await this.versions(deviceId);
    const target =
      to === undefined
        ? (versions.find((v) => v.current) ?? versions[0])
        : versions.find((v) => v.version === to);
    if (!target) throw notFound('catalog version', `${to ?? '(current)'} of ${deviceId}`);
    const fromVersion = from ?? target.version - 1;
    const base = versions.find((v) => v.version === fromVersion);
    const [before, after] = await Promise.all([
      base ? this.tools.tools(base.catalogId) : Promise.resolve([]),
      this.tools.tools(target.catalogId),
    ]);
    if (!base && from !== undefined) throw notFound('catalog version', `${from} of ${deviceId}`);
    return { from: base?.version ?? 0, to: target.version, ...diffCatalogs(before, after) };
  }

  private async mustExist(deviceId: string): Promise<void> {
    if (!(await this.devices.exists(deviceId))) throw notFound('device', deviceId);
  }
}

function withoutInternals(v: CatalogVersionRow): DeviceCatalogView['catalog'] {
  const { diff: _diff, catalogId: _catalogId, current: _current, ...rest } = v;
  return rest;
}
