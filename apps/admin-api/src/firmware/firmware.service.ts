import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { checkBoardFit, isSafeFirmwareVersion, type EspImageCheck } from '@fleet/protocol';
import type { z } from 'zod';
import { Counter, type Registry } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { Actor } from '../http/actor';
import { failedCheck, notFound, unprocessable } from '../http/api-error';
import { BoardFactsRepository } from './board-facts.repository';
import { parseEspAppImage, type EspImage } from './esp-app-image';
import { FirmwareRepository, type FirmwareRecord } from './firmware.repository';
import { METRICS_REGISTRY } from '../infra/tokens';
import type { FirmwareView, uploadedView } from './firmware.schemas';

/** Checks that mean the bytes are not an app image at all; the others mean a damaged or cut image. */
const NOT_AN_IMAGE: readonly EspImageCheck[] = ['magic', 'chip_id', 'app_descriptor'];

/**
 * The firmware registry. An image is admitted only when it passes the checks the device's bootloader runs
 * (segments, checksum, appended SHA-256, app descriptor: libs/protocol esp-image), its version is one a device
 * can compare without crashing (dotted integers: xiaozhi §4.3, std::stoi), and its chip and flash size fit what
 * devices of every declared board report. A refusal names the check, what it expected and what it found.
 */
@Injectable()
export class FirmwareService {
  private readonly refused: Counter;

  constructor(
    private readonly firmware: FirmwareRepository,
    private readonly boardFacts: BoardFactsRepository,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.refused = new Counter({
      name: 'admin_api_firmware_refused_total',
      help: 'Firmware uploads refused, by the check that failed (checksum, sha256, chip, flash_size, ...)',
      labelNames: ['check'],
      registers: [registry],
    });
  }

  async upload(actor: Actor, data: Buffer, boards: string[]): Promise<z.infer<typeof uploadedView>> {
    const parsed = parseEspAppImage(data);
    if (!parsed.ok) {
      const { kind, expected, found } = parsed.failure;
      this.refused.inc({ check: kind });
      const code = NOT_AN_IMAGE.includes(kind) ? 'not_an_esp_image' : 'image_corrupt';
      throw failedCheck(code, parsed.reason, 'body', { check: kind, expected, found });
    }
    const { image } = parsed;
    if (!isSafeFirmwareVersion(image.version)) {
      this.refused.inc({ check: 'version' });
      throw unprocessable(
        'unsafe_version',
        `version ${JSON.stringify(image.version)} is not dotted integers; a device comparing it would crash`,
        'body.version',
      );
    }
    const warnings = await this.checkBoards(image, boards);
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
    return {
      ...this.view(record),
      created: !existing,
      idfVersion: image.idfVersion,
      flash: {
        mode: image.flash.mode ?? null,
        freqCode: image.flash.freqCode,
        sizeBytes: image.flash.sizeBytes ?? null,
      },
      hashAppended: image.hashAppended,
      warnings,
    };
  }

  async list(): Promise<FirmwareView[]> {
    return (await this.firmware.list()).map((f) => this.view(f));
  }

  async get(id: string): Promise<FirmwareView> {
    const record = await this.firmware.get(id);
    if (!record) throw notFound('firmware', id);
    return this.view(record);
  }

  private async checkBoards(image: EspImage, boards: string[]): Promise<string[]> {
    const { failures, warnings } = checkBoardFit(image, await this.boardFacts.ofBoards(boards));
    const first = failures[0];
    if (first) {
      this.refused.inc({ check: first.kind });
      throw failedCheck(
        first.kind === 'chip' ? 'chip_mismatch' : 'flash_size_mismatch',
        first.message,
        'query.boards',
        {
          check: first.kind,
          expected: first.expected,
          found: first.found,
        },
      );
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
