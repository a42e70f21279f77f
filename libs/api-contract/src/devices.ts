import { z } from 'zod';
import { instant, page } from './common';
import { DEVICE_STATUSES, DIALECTS } from './vocabulary';

// DESIGN §3: the Client-Id is a device secret. No answer here carries it: a `...Fingerprint` is the first
// 8 hex of its hash, nothing more.

export const deviceSummarySchema = z.strictObject({
  id: z.string(),
  status: z.enum(DEVICE_STATUSES),
  dialect: z.enum(DIALECTS),
  board: z.string().nullable(),
  boardName: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  chipModel: z.string().nullable(),
  online: z.boolean(),
  lastSeenAt: instant.nullable(),
});
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

/** GET /devices. */
export const deviceListSchema = page(deviceSummarySchema);

export const identityChangeSchema = z.strictObject({
  at: instant,
  field: z.enum(['board', 'chip', 'client_id', 'serial']),
  previous: z.string().nullable().describe('for `client_id`, a fingerprint'),
  current: z.string().nullable().describe('for `client_id`, a fingerprint'),
  source: z.enum(['check_in', 'proof', 'operator']),
  bootReportId: z.string().nullable(),
  quarantineId: z.string().nullable(),
  operatorId: z.string().nullable(),
});
export type IdentityChange = z.infer<typeof identityChangeSchema>;

export const linkTokenSchema = z.strictObject({
  id: z.uuid(),
  prefix: z.string().describe('names the token; the secret is never shown again'),
  createdAt: instant,
  revokedAt: instant.nullable(),
  lastUsedAt: instant.nullable(),
});
export type LinkToken = z.infer<typeof linkTokenSchema>;

/**
 * More takeovers of one device than this in an hour is a device fought over (a cloned Client-Id, a same-board
 * impostor), not a flaky network: the fleet's alert counts such devices and the device page marks them.
 */
export const TAKEOVERS_AN_HOUR_OF_CONCERN = 5;

/** A connection of the device closed because a newer one of the same device took over (DESIGN §3). */
export const takeoverSchema = z.strictObject({
  at: instant,
  displacedAddress: z.string().nullable().describe('where the connection that was taken over came from'),
  displacedClientIdFingerprint: z.string(),
  byAddress: z
    .string()
    .nullable()
    .describe('where the connection that took over came from (null: it never came online)'),
  byClientIdFingerprint: z.string().nullable(),
});
export type Takeover = z.infer<typeof takeoverSchema>;

/** GET /devices/:id: device, presence, last status readback, current catalog version. */
export const deviceDetailSchema = deviceSummarySchema.extend({
  clientIdFingerprint: z.string().describe("the first 8 hex of the Client-Id's hash"),
  serialNumber: z.string().nullable(),
  otaLabel: z.string().nullable(),
  connectionId: z.string().nullable(),
  lastBootAt: instant.nullable(),
  lastStatus: z.unknown().describe('the last `self.get_device_status` reply (a JSON object, or its text)'),
  lastStatusAt: instant.nullable(),
  awaitingActivation: z.boolean(),
  createdAt: instant,
  updatedAt: instant,
  catalog: z
    .strictObject({
      versionId: z.string(),
      version: z.int(),
      hash: z.string(),
      toolCount: z.int(),
      discoveredAt: instant,
      lastConfirmedAt: instant,
    })
    .nullable(),
  connection: z
    .strictObject({
      id: z.string(),
      brokerId: z.string(),
      remoteAddress: z.string().nullable(),
      openedAt: instant,
      onlineAt: instant.nullable(),
    })
    .nullable(),
  groups: z.array(z.strictObject({ id: z.uuid(), name: z.string(), timeZone: z.string() })),
  tags: z.array(z.string()),
  quarantine: z.array(
    z.strictObject({
      id: z.uuid(),
      claimedClientIdFingerprint: z.string(),
      claimedSerial: z.string().nullable(),
      remoteAddress: z.string().nullable(),
      createdAt: instant,
    }),
  ),
  identityChanges: z.array(identityChangeSchema),
  firmwareAssignment: z
    .strictObject({
      firmwareId: z.uuid(),
      version: z.string(),
      campaignId: z.uuid().nullable(),
      assignedAt: instant,
      offeredAt: instant.nullable(),
    })
    .nullable(),
  linkTokens: z.array(linkTokenSchema).describe('ListenAI devices: their link tokens, never the secrets'),
  takeovers: z.strictObject({
    lastHour: z.int(),
    lastDay: z.int(),
    recent: z.array(takeoverSchema).describe("the last day's, newest first, at most 20"),
  }),
});
export type DeviceDetail = z.infer<typeof deviceDetailSchema>;

/** One connection of GET /devices/:id/presence, newest first. */
export const connectionSchema = z.strictObject({
  connectionId: z.string(),
  brokerId: z.string(),
  clientIdFingerprint: z.string(),
  remoteAddress: z.string().nullable(),
  keepalive: z.int(),
  openedAt: instant,
  onlineAt: instant.nullable(),
  closedAt: instant.nullable(),
  closeReason: z.string().nullable(),
  durationS: z.int().nullable().describe('how long it lasted; null while open'),
});
export type Connection = z.infer<typeof connectionSchema>;
export const presenceHistorySchema = page(connectionSchema);

/** POST /devices/:id/{bind,revoke,reinstate,decommission}. */
export const statusChangeSchema = z.strictObject({ id: z.string(), status: z.enum(DEVICE_STATUSES) });
export type StatusChange = z.infer<typeof statusChangeSchema>;

/** A registration or a new link token: the whole token is in this answer only. */
export const issuedLinkTokenSchema = z.strictObject({
  deviceId: z.string(),
  token: linkTokenSchema.extend({
    secret: z.string().describe('the whole token, in this answer only: the device presents it on its link'),
  }),
  linkUrl: z.string().describe('where the device opens its link (with param {"mcp":true})'),
  revokedTokens: z.array(z.uuid()).describe('tokens of the device this one replaced, revoked'),
});
export type IssuedLinkToken = z.infer<typeof issuedLinkTokenSchema>;

export const revokedLinkTokensSchema = z.strictObject({
  deviceId: z.string(),
  revokedTokens: z.array(z.uuid()),
});
