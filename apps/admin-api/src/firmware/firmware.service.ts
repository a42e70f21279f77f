import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { isSafeFirmwareVersion } from '@fleet/protocol';
import type { z } from 'zod';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { Actor } from '../http/actor';
import { notFound, unprocessable } from '../http/api-error';
import { parseEspAppImage } from './esp-app-image';
import { FirmwareRepository, type FirmwareRecord } from './firmware.repository';
import type { FirmwareView, uploadedView } from './firmware.schemas';

/** "ESP32-S3", "esp32s3" and "esp32_s3" are one chip. */
const normaliseChip = (chip: string) => chip.toLowerCase().replace(/[-_\s]/g, '');

/**
 * The firmware registry. An image is admitted only when its ESP app descriptor parses, its version is one a
 * device can compare without crashing (dotted integers: xiaozhi §4.3, std::stoi), and its chip is the one
 * devices of every declared board report.
 */
@Injectable()
export class FirmwareService {
  constructor(
    private readonly firmware: FirmwareRepository,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  async upload(actor: Actor, data: Buffer, boards: string[]): Promise<z.infer<typeof uploadedView>> {
    const parsed = parseEspAppImage(data);
    if (!parsed.ok) throw unprocessable('not_an_esp_image', parsed.reason, 'body');
    const { image } = parsed;
    if (!isSafeFirmwareVersion(image.version)) {
      throw unprocessable(
        'unsafe_version',
        `version ${JSON.stringify(image.version)} is not dotted integers; a device comparing it would crash`,
        'body.version',
      );
    }
    const warnings = await this.checkChip(image.chip, boards);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const existing = await this.firmware.bySha256(sha256);
    const record =
      existing ??
      (await this.firmware.create(data, {
        version: image.version,
        projectName: image.projectName,
        chip: image.chip,
        sha256,
        boards,
        uploadedBy: actor.operatorId,
      }));
    return { ...this.view(record), created: !existing, idfVersion: image.idfVersion, warnings };
  }

  async list(): Promise<FirmwareView[]> {
    return (await this.firmware.list()).map((f) => this.view(f));
  }

  async get(id: string): Promise<FirmwareView> {
    const record = await this.firmware.get(id);
    if (!record) throw notFound('firmware', id);
    return this.view(record);
  }

  private async checkChip(chip: string, boards: string[]): Promise<string[]> {
    const known = await this.firmware.chipsOfBoards(boards);
    const warnings: string[] = [];
    for (const board of boards) {
      const chips = [...(known.get(board) ?? [])];
      if (chips.length === 0) {
        warnings.push(`no device of board ${board} has reported its chip yet; it could not be checked`);
      } else if (!chips.some((c) => normaliseChip(c) === chip)) {
        throw unprocessable(
          'chip_mismatch',
          `the image is for ${chip}, but devices of board ${board} report ${chips.join(', ')}`,
          'query.boards',
        );
      }
    }
    return warnings;
  }

  private view(f: FirmwareRecord): FirmwareView {
    return {
      ...f,
      createdAt: f.createdAt.toISOString(),
      downloadUrl: `${this.config.PUBLIC_HTTP_URL.replace(/\/$/, '')}/firmware/${f.sha256}.bin`,
    };
  }
}
