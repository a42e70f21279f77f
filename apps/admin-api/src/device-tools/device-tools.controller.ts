import { Controller, Get, Put } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { deviceIdParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import type { CatalogDiff } from './catalog-diff';
import type { CatalogVersionRow, MarkingRow } from './device-tools.repository';
import { catalogDiffQuery, markingBody, toolParams } from './device-tools.schemas';
import { DeviceToolsService, type DeviceCatalogView } from './device-tools.service';

@Controller('devices/:id')
export class DeviceToolsController {
  constructor(private readonly tools: DeviceToolsService) {}

  @Get('tools')
  @Roles('viewer')
  @Doc({
    summary:
      'The current catalog: every tool with userOnly, sensitive and readOnly marked, and the ordering rules in force',
  })
  catalog(@ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>): Promise<DeviceCatalogView> {
    return this.tools.catalog(p.id);
  }

  @Put('tools/:name')
  @Roles('operator')
  @Audited('tool.mark', 'tool')
  @Doc({
    summary:
      'Mark a tool sensitive (operator) or lift the marking (admin); mark it read-only (operator). ' +
      '`:name` is the name the catalog holds, as one percent-encoded path segment',
  })
  mark(
    @CurrentActor() actor: Actor,
    @ValidParams(toolParams) p: z.infer<typeof toolParams>,
    @ValidBody(markingBody) body: z.infer<typeof markingBody>,
  ): Promise<MarkingRow> {
    return this.tools.mark(actor, p.id, p.name, body);
  }

  @Get('catalogs')
  @Roles('viewer')
  @Doc({ summary: 'Catalog versions as discovery recorded them, newest first' })
  versions(@ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>): Promise<CatalogVersionRow[]> {
    return this.tools.versions(p.id);
  }

  @Get('catalogs/diff')
  @Roles('viewer')
  @Doc({ summary: 'What changed between two catalog versions (tools added, removed, changed)' })
  diff(
    @ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>,
    @ValidQuery(catalogDiffQuery) q: z.infer<typeof catalogDiffQuery>,
  ): Promise<CatalogDiff & { from: number; to: number }> {
    return this.tools.diff(p.id, q.from, q.to);
  }
}
