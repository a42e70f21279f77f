import { Injectable } from '@nestjs/common';
import { PrismaService } from '../infra/prisma.service';

export interface FirmwareRecord {
  id: string;
  version: string;
  projectName: string;
  chip: string;
  sha256: string;
  size: number;
  boards: string[];
  uploadedBy: string;
  createdAt: Date;
}

const COLUMNS = {
  id: true,
  version: true,
  projectName: true,
  chip: true,
  sha256: true,
  size: true,
  boards: true,
  uploadedBy: true,
  createdAt: true,
} as const;

/** The registry: metadata in `firmware`, the bytes once per content in `firmware_image` (the broker serves them). */
@Injectable()
export class FirmwareRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(): Promise<FirmwareRecord[]> {
    return this.prisma.client.firmware.findMany({ select: COLUMNS, orderBy: { createdAt: 'desc' } });
  }

  get(id: string): Promise<FirmwareRecord | null> {
    return this.prisma.client.firmware.findUnique({ where: { id }, select: COLUMNS });
  }

  bySha256(sha256: string): Promise<FirmwareRecord | null> {
    return this.prisma.client.firmware.findUnique({ where: { sha256 }, select: COLUMNS });
  }

  /** Image and metadata together: a registry entry never points at bytes that are not there. */
  create(data: Buffer, meta: Omit<FirmwareRecord, 'id' | 'createdAt' | 'size'>): Promise<FirmwareRecord> {
    return this.prisma.client.$transaction(async (tx) => {
      await tx.firmwareImage.upsert({
        where: { sha256: meta.sha256 },
        create: { sha256: meta.sha256, size: data.length, data: new Uint8Array(data) },
        update: {},
      });
      return tx.firmware.create({ data: { ...meta, size: data.length }, select: COLUMNS });
    });
  }
}
