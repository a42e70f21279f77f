import { createDatabase, jsonParam, sql, TurnBatcher, type Database, type Pool, type Row } from '@fleet/db';
import type { Mac } from '@fleet/protocol';
import { writeBootReports } from './boot-reports.repository';

export type DeviceStatus = Row<'device'>['status'];

/**
 * The columns of a device row the broker reads, under their application names; `clientIdHash` is the sha256 of
 * the bound Client-Id (DESIGN §3: never kept as it is), `mqttClientIdHash` that of the MQTT client id the last
 * OTA answer issued (null for devices registered before it was kept).
 */
const DEVICE_COLUMNS = [
  'id',
  'client_id as clientIdHash',
  'serial_number as serialNumber',
  'status',
  'activation_code as activationCode',
  'activation_challenge as activationChallenge',
  'firmware_version as firmwareVersion',
  'board',
  'chip_model as chipModel',
  'mqtt_client_id_hash as mqttClientIdHash',
] as const;

type DeviceColumns = {
  [
    K in (typeof DEVICE_COLUMNS)[number] as K extends `${string} as ${infer A}` ? A : K
  ]: K extends `${infer C} as ${string}`
    ? Row<'device'>[C & keyof Row<'device'>]
    : Row<'device'>[K & keyof Row<'device'>];
};

export type DeviceRecord = Omit<DeviceColumns, 'id'> & { id: Mac };

export interface AssignedFirmware {
  firmwareId: Row<'firmware'>['id'];
  version: Row<'firmware'>['version'];
  sha256: Row<'firmware'>['sha256'];
}

/** What a check-in reads first: the device row and the firmware assigned to it, in one statement. */
export interface CheckInRecord {
  device: DeviceRecord | undefined;
  assigned: AssignedFirmware | undefined;
}

/** A first sight's row; `created` when this call inserted it (rather than reading back a concurrent winner's). */
export type FirstSightRecord = DeviceRecord & { created?: boolean };

export interface NewDevice {
  mac: Mac;
  clientIdHash: string;
  serialNumber: string | undefined;
  status: 'active' | 'awaiting_activation';
  activationCode?: string;
  activationChallenge?: string;
}

/** What a check-in of the bound identity changed about what the device is (DESIGN §3: an event, not a rewrite). */
export interface IdentityChange {
  field: 'board' | 'chip';
  previous: string;
  current: string;
}

export interface BootFacts {
  mac: Mac;
  clientIdHash: string;
  firmwareVersion: string | undefined;
  board: string | undefined;
  boardName: string | undefined;
  otaLabel: string | undefined;
  chipModel: string | undefined;
  remoteAddress: string | undefined;
  userAgent: string | undefined;
  body: unknown;
  complaints: unknown;
  firmwareOffered: unknown;
  /** Only a check-in from the bound identity updates what the device row says it runs. */
  updatesDevice: boolean;
  /** The MQTT client id this answer issued (hashed): from now on the only one the broker accepts. */
  issuedMqttClientIdHash?: string;
  identityChanges?: IdentityChange[];
}

/**
 * How long a check-in's or a CONNECT's statement waits for other devices' to join it. Nobody waits on these but
 * the device, which allows seconds (its CONNECT 10 s, xiaozhi §1.2), and when a fleet powers on, a statement that carries
 * several devices costs Postgres about what one carrying a single device does.
 */
const POWER_ON_GATHER_MS = 5;

/**
 * The broker's reads and writes of device rows, through Kysely over the broker's pool (DESIGN §8). The hot
 * ones (the read at every CONNECT and check-in, first sight, the boot report, the firmware assignment) go
 * through turn batchers: concurrent callers share one statement, each still gets its own answer once its own
 * row is committed.
 */
export class DeviceRepository {
  /** Every read of a device row (check-in, CONNECT, activation) shares this one: the assignment comes along. */
  private readonly finds: TurnBatcher<Mac, CheckInRecord>;
  private readonly firstSights: TurnBatcher<NewDevice, FirstSightRecord>;
  private readonly boots: TurnBatcher<BootFacts & { receivedAt: Date }, undefined>;
  private readonly assignments: TurnBatcher<Mac, AssignedFirmware | undefined>;

  private readonly db: Database;

  constructor(pool: Pool) {
    this.db = createDatabase(pool);
    const gatherMs = POWER_ON_GATHER_MS;
    this.finds = new TurnBatcher((macs) => this.findMany(macs), { gatherMs });
    this.firstSights = new TurnBatcher((devices) => this.createMany(devices), {
      retrySingly: true,
      gatherMs,
    });
    this.boots = new TurnBatcher(
      async (reports) => {
        await writeBootReports(this.db, reports);
        return reports.map(() => undefined);
      },
      { retrySingly: true, gatherMs },
    );
    this.assignments = new TurnBatcher((macs) => this.assignedMany(macs), { gatherMs });
  }

  async find(mac: Mac): Promise<DeviceRecord | undefined> {
    return (await this.finds.submit(mac)).device;
  }

  /** The row a check-in decides on, with the firmware assigned to the device (read together: one round trip). */
  findForCheckIn(mac: Mac): Promise<CheckInRecord> {
    return this.finds.submit(mac);
  }

  /** First sight binds the MAC to its Client-Id (hashed); a concurrent first sight loses and reads the winner's row. */
  createOnFirstSight(d: NewDevice): Promise<FirstSightRecord> {
    return this.firstSights.submit(d);
  }

  /** One boot report, and the device row brought up to date; resolves once both are committed. */
  async recordBoot(f: BootFacts): Promise<void> {
    await this.boots.submit({ ...f, receivedAt: new Date() });
  }

  assignedFirmware(mac: Mac): Promise<AssignedFirmware | undefined> {
    return this.assignments.submit(mac);
  }

  private async findMany(macs: Mac[]): Promise<CheckInRecord[]> {
    const rows = await this.db
      .selectFrom('device as d')
      .leftJoin('firmware_assignment as a', 'a.device_id', 'd.id')
      .leftJoin('firmware as f', 'f.id', 'a.firmware_id')
      .select([
        ...DEVICE_COLUMNS.map((c) => `d.${c}` as const),
        'f.id as firmwareId',
        'f.version as firmwareVersionAssigned',
        'f.sha256 as firmwareSha256',
      ])
      .where('d.id', '=', sql<string>`any(${[...new Set(macs)]}::text[])`)
      .execute();
    const byId = new Map(
      rows.map(({ firmwareId, firmwareVersionAssigned, firmwareSha256, ...device }) => [
        device.id,
        {
          device,
          assigned:
            firmwareId !== null && firmwareVersionAssigned !== null && firmwareSha256 !== null
              ? { firmwareId, version: firmwareVersionAssigned, sha256: firmwareSha256 }
              : undefined,
        },
      ]),
    );
    return macs.map((mac) => byId.get(mac) ?? { device: undefined, assigned: undefined });
  }

  private async createMany(devices: NewDevice[]): Promise<FirstSightRecord[]> {
    // One statement for the whole batch: the rows travel as one array per column (unnest has no builder).
    const rows = await this.db
      .insertInto('device')
      .columns([
        'id',
        'client_id',
        'serial_number',
        'status',
        'activation_code',
        'activation_challenge',
        'updated_at',
      ])
      .expression(
        this.db
          .selectFrom(
            sql<Row<'device'>>`unnest(${devices.map((d) => d.mac)}::text[], ${devices.map(
              (d) => d.clientIdHash,
            )}::text[], ${devices.map((d) => d.serialNumber ?? null)}::text[], ${devices.map(
              (d) => d.status,
            )}::"DeviceStatus"[], ${devices.map((d) => d.activationCode ?? null)}::text[], ${devices.map(
              (d) => d.activationChallenge ?? null,
            )}::text[])`.as<'u'>(
              sql`u(id, client_id, serial_number, status, activation_code, activation_challenge)`,
            ),
          )
          .select([
            'u.id',
            'u.client_id',
            'u.serial_number',
            'u.status',
            'u.activation_code',
            'u.activation_challenge',
            sql<Date>`now()`.as('updated_at'),
          ]),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .returning(DEVICE_COLUMNS)
      .execute();
    const byId = new Map<string, FirstSightRecord>(rows.map((r) => [r.id, { ...r, created: true }]));
    // Rows that already existed (another check-in won the race) are read back as they are.
    const missing = devices.filter((d) => !byId.has(d.mac)).map((d) => d.mac);
    if (missing.length) {
      for (const { device } of await this.findMany(missing)) if (device) byId.set(device.id, device);
    }
    return devices.map((d) => {
      const row = byId.get(d.mac);
      if (!row) throw new Error(`device ${d.mac} was neither created nor found`);
      return row;
    });
  }

  private async assignedMany(macs: Mac[]): Promise<(AssignedFirmware | undefined)[]> {
    const rows = await this.db
      .selectFrom('firmware_assignment as a')
      .innerJoin('firmware as f', 'f.id', 'a.firmware_id')
      .select(['a.device_id as deviceId', 'f.id as firmwareId', 'f.version', 'f.sha256'])
      .where('a.device_id', '=', sql<string>`any(${[...new Set(macs)]}::text[])`)
      .execute();
    const byDevice = new Map(rows.map(({ deviceId, ...assigned }) => [deviceId, assigned]));
    return macs.map((mac) => byDevice.get(mac));
  }

  /** A check-in under a MAC from another identity waits for an operator; repeats do not pile up. */
  async quarantine(q: {
    mac: Mac;
    clientIdHash: string;
    serialNumber: string | undefined;
    remoteAddress: string | undefined;
    body: unknown;
  }): Promise<boolean> {
    const result = await this.db
      .insertInto('device_quarantine')
      .columns(['id', 'device_id', 'claimed_client_id', 'claimed_serial', 'remote_address', 'body'])
      .expression(
        this.db
          .selectNoFrom((eb) => [
            sql<string>`gen_random_uuid()`.as('id'),
            eb.val(q.mac).as('device_id'),
            eb.val(q.clientIdHash).as('claimed_client_id'),
            eb.val(q.serialNumber ?? null).as('claimed_serial'),
            eb.val(q.remoteAddress ?? null).as('remote_address'),
            sql<unknown>`${jsonParam(q.body ?? null)}::jsonb`.as('body'),
          ])
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('device_quarantine')
                  .select(sql`1`.as('one'))
                  .where('device_id', '=', q.mac)
                  .where('claimed_client_id', '=', q.clientIdHash)
                  .where('state', '=', 'pending'),
              ),
            ),
          ),
      )
      .executeTakeFirst();
    return result.numInsertedOrUpdatedRows !== undefined && result.numInsertedOrUpdatedRows > 0n;
  }

  async markFirmwareOffered(mac: Mac): Promise<void> {
    await this.db
      .updateTable('firmware_assignment')
      .set({ offered_at: sql<Date>`now()` })
      .where('device_id', '=', mac)
      .execute();
  }
}
