import type {
  CallOrigin,
  CallState,
  CampaignAbortRule,
  CampaignAction,
  CampaignRollout,
  CampaignSelector,
  CampaignSpec,
  CampaignState,
  CampaignTargetState,
  DecisionPayload,
  DiscoveryPayload,
  EffectPayload,
  EvidenceStage,
  MaintenanceWindow,
  ParametersPayload,
  ResponsePayload,
  SkippedStage,
  Verdict,
} from '@fleet/domain';

// What the admin API answers, as JSON (dates are ISO strings). Written from the API's own views
// (apps/admin-api/src/**/*.{schemas,repository,service}.ts) and its OpenAPI document at /docs/json; the
// vocabularies (verdicts, states, evidence payloads, campaign specs) are the types of @fleet/domain.

export type Role = 'viewer' | 'operator' | 'admin';

export interface Operator {
  id: string;
  email: string;
  name: string;
  role: Role;
}
export interface Me extends Operator {
  via: 'api_key' | 'session';
  apiKeyId?: string;
  sessionId?: string;
}
export interface SignedIn {
  token: string;
  expiresAt: string;
  operator: Operator;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export type DeviceStatus = 'active' | 'awaiting_activation' | 'revoked' | 'decommissioned';
/** How a device speaks MCP: xiaozhi over MQTT, or ListenAI over its WebSocket link. */
export type Dialect = 'xiaozhi' | 'listenai';
export const DIALECTS: readonly Dialect[] = ['xiaozhi', 'listenai'];

export interface DeviceSummary {
  id: string;
  status: DeviceStatus;
  dialect: Dialect;
  board: string | null;
  boardName: string | null;
  firmwareVersion: string | null;
  chipModel: string | null;
  online: boolean;
  lastSeenAt: string | null;
}

export interface DeviceFilters {
  online?: boolean;
  board?: string;
  firmware?: string;
  group?: string;
  tag?: string;
  status?: DeviceStatus;
  dialect?: Dialect;
  q?: string;
}

/** DESIGN §3: what changed about what a device is; Client-Id values are fingerprints. */
export interface IdentityChange {
  at: string;
  field: 'board' | 'chip' | 'client_id' | 'serial';
  previous: string | null;
  current: string | null;
  source: 'check_in' | 'proof' | 'operator';
  bootReportId: string | null;
  quarantineId: string | null;
  operatorId: string | null;
}

export interface DeviceDetail extends Omit<DeviceSummary, 'lastSeenAt'> {
  /** The first 8 hex of the Client-Id's hash: the Client-Id itself is a device secret. */
  clientIdFingerprint: string;
  serialNumber: string | null;
  otaLabel: string | null;
  connectionId: string | null;
  lastSeenAt: string | null;
  lastBootAt: string | null;
  /** The last `self.get_device_status` reply the platform read (a JSON object, or its text). */
  lastStatus: unknown;
  lastStatusAt: string | null;
  awaitingActivation: boolean;
  createdAt: string;
  catalog: {
    versionId: string;
    version: number;
    hash: string;
    toolCount: number;
    discoveredAt: string;
    lastConfirmedAt: string;
  } | null;
  connection: {
    id: string;
    brokerId: string;
    remoteAddress: string | null;
    openedAt: string;
    onlineAt: string | null;
  } | null;
  groups: { id: string; name: string; timeZone: string }[];
  tags: string[];
  quarantine: {
    id: string;
    claimedClientIdFingerprint: string;
    claimedSerial: string | null;
    remoteAddress: string | null;
    createdAt: string;
  }[];
  identityChanges: IdentityChange[];
  firmwareAssignment: {
    firmwareId: string;
    version: string;
    campaignId: string | null;
    assignedAt: string;
  } | null;
  /** ListenAI devices: the tokens issued for their link (never the secrets). */
  linkTokens: LinkToken[];
}

export interface LinkToken {
  id: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** A registration or a new token: the whole token is in this answer only. */
export interface IssuedLinkToken {
  deviceId: string;
  token: LinkToken & { secret: string };
  linkUrl: string;
  revokedTokens: string[];
}

export interface Connection {
  connectionId: string;
  brokerId: string;
  clientIdFingerprint: string;
  remoteAddress: string | null;
  keepalive: number;
  openedAt: string;
  onlineAt: string | null;
  closedAt: string | null;
  closeReason: string | null;
}

export interface Tool {
  position: number;
  name: string;
  description: string;
  inputSchema: unknown;
  annotations: unknown;
  /** Declared user-only by the device (annotations.audience has "user"). */
  userOnly: boolean;
  /** Marked sensitive by an operator. */
  sensitive: boolean;
  /** Needs another person's approval when an operator calls it; never offered to the LLM. */
  gated: boolean;
}

export interface OrderingRule {
  id: string;
  source: 'config' | 'derived';
  tool: string;
  requires: string;
  maxAgeMs: number;
  action: 'run_first' | 'refuse';
  evidence: string | null;
}

export interface CatalogVersion {
  versionId: string;
  version: number;
  hash: string;
  toolCount: number;
  serverName: string | null;
  serverVersion: string | null;
  protocolVersion: string | null;
  discoveredAt: string;
  lastConfirmedAt: string;
  current: boolean;
}

export interface DeviceCatalog {
  deviceId: string;
  catalog: Omit<CatalogVersion, 'current'> | null;
  tools: Tool[];
  platformTools: Tool[];
  orderingRules: OrderingRule[];
}

export interface CatalogDiff {
  from: number;
  to: number;
  added: string[];
  removed: string[];
  changed: { name: string; fields: ('description' | 'inputSchema' | 'annotations' | 'userOnly')[] }[];
}

export interface CallSummary {
  id: string;
  deviceId: string;
  tool: string;
  origin: CallOrigin;
  operatorId: string | null;
  campaignId: string | null;
  state: CallState;
  verdict: Verdict | null;
  createdAt: string;
  sealedAt: string | null;
}

export interface CallFilters {
  deviceId?: string;
  verdict?: Verdict;
  tool?: string;
  from?: string;
  to?: string;
}

interface RowBase {
  id: string;
  seq: string;
  createdAt: string;
  prevHash: string;
  hash: string;
}
/** One evidence row: skipped (the stage did not happen, and says why), valid for its stage, or shown as stored. */
type StageRow<S extends EvidenceStage, P> = RowBase & { stage: S } & (
    | { skipped: true; valid: true; payload: SkippedStage }
    | { skipped: false; valid: true; payload: P }
    | { skipped: false; valid: false; problems: string[]; payload: unknown }
  );
/** Each stage's payload contract (libs/domain evidence-payloads). */
export interface StagePayloads {
  discovery: DiscoveryPayload;
  decision: DecisionPayload;
  parameters: ParametersPayload;
  response: ResponsePayload;
  effect: EffectPayload;
}
export type EvidenceRow = { [S in EvidenceStage]: StageRow<S, StagePayloads[S]> }[EvidenceStage];

export interface Call extends CallSummary {
  arguments: Record<string, unknown>;
  reason: string | null;
  apiKeyId: string | null;
  voiceTurnId: string | null;
  agentId: string | null;
  parentCallId: string | null;
  verdictReason: string | null;
  verdictMeaning: string | null;
  jsonrpcId: number | null;
  connectionId: string | null;
  deadlineAt: string;
  replyTimeoutMs: number;
  sentAt: string | null;
  result: unknown;
  cancelledBy: string | null;
  cancelReason: string | null;
  approval: {
    id: string;
    state: ApprovalState;
    requestedBy: string;
    decidedBy: string | null;
    decidedAt: string | null;
    reason: string | null;
    expiresAt: string;
  } | null;
  prerequisites: { id: string; tool: string; state: CallState; verdict: Verdict | null }[];
  evidence: { complete: boolean; missing: EvidenceStage[]; rows: EvidenceRow[] };
  /** DESIGN §5: the device later came back on an older version than this upgrade reached. */
  rolledBackLater?: {
    reachedVersion: string;
    reportedVersion: string;
    reportedOtaLabel: string | null;
    bootReportId: string | null;
    detectedAt: string;
  } | null;
}

export interface CallCreated {
  id: string;
  state: CallState;
  approvalId?: string;
}

export type ApprovalState = 'pending' | 'approved' | 'rejected' | 'expired';

export interface Person {
  id: string;
  email: string;
  name: string;
}

export interface Approval {
  id: string;
  state: ApprovalState;
  /** `expired` for a pending approval past its expiry. */
  effectiveState: ApprovalState;
  callId: string | null;
  campaignId: string | null;
  deviceId: string | null;
  tool: string;
  arguments: unknown;
  argumentsHash: string;
  requestedBy: Person;
  decidedBy: Person | null;
  decidedAt: string | null;
  reason: string | null;
  expiresAt: string;
  createdAt: string;
  call: {
    id: string;
    deviceId: string;
    tool: string;
    reason: string | null;
    state: CallState;
    verdict: Verdict | null;
  } | null;
  campaign: { id: string; name: string; state: CampaignState; selector: CampaignSelector } | null;
}

export interface Decision {
  id: string;
  state: 'approved' | 'rejected';
  callId: string | null;
  campaignId: string | null;
}

export type {
  CampaignAbortRule,
  CampaignAction,
  CampaignRollout,
  CampaignSelector,
  CampaignSpec,
  MaintenanceWindow,
};

export type Progress = { total: number } & Record<CampaignTargetState, number>;

export interface Campaign {
  id: string;
  name: string;
  createdBy: string;
  state: CampaignState;
  selector: CampaignSelector;
  action: CampaignAction;
  rollout: CampaignRollout;
  abortRule: CampaignAbortRule;
  windows: MaintenanceWindow[] | null;
  deviceTimeoutS: number;
  retries: number;
  skipInSession: boolean;
  stateReason: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface CampaignView extends Campaign {
  progress: Progress;
  approvalId: string | null;
}

export interface CampaignTarget {
  id: string;
  deviceId: string;
  state: CampaignTargetState;
  attempts: number;
  callId: string | null;
  detail: string | null;
  deadlineAt: string | null;
  updatedAt: string;
}

export interface Preview {
  matched: number;
  online: number;
  byBoard: { board: string | null; devices: number }[];
  byFirmware: { firmware: string | null; devices: number }[];
  sample: string[];
  needsApproval?: boolean;
  willSkip?: number;
}

/** GET /fleet/summary (apps/admin-api/src/fleet-summary/fleet-summary.schemas.ts). */
export interface FleetSummary {
  at: string;
  devices: { total: number; online: number; offline: number };
  byBoard: { board: string | null; online: number; offline: number }[];
  byFirmware: { firmware: string | null; online: number; offline: number }[];
  byDialect: { dialect: string; online: number; offline: number }[];
  calls: {
    from: string;
    to: string;
    byVerdict: Partial<Record<Verdict, number>>;
    buckets: { start: string; byVerdict: Partial<Record<Verdict, number>> }[];
  };
}

export interface Firmware {
  id: string;
  version: string;
  projectName: string;
  chip: string;
  boards: string[];
  createdAt: string;
}

export interface AuditReport {
  period: { from: string; to: string };
  calls: {
    total: number;
    /** By verdict, and `unsealed` for calls still running. */
    byVerdict: Partial<Record<Verdict | 'unsealed', number>>;
    byOrigin: Partial<Record<CallOrigin, number>>;
    byTool: { tool: string; calls: number; verified: number }[];
    byOperator: { operatorId: string; email: string; calls: number }[];
  };
  approvals: {
    items: {
      id: string;
      callId: string | null;
      campaignId: string | null;
      deviceId: string | null;
      tool: string;
      state: ApprovalState;
      requestedBy: string;
      requestedAt: string;
      decidedBy: string | null;
      decidedAt: string | null;
      reason: string | null;
    }[];
    truncated: boolean;
  };
  campaigns: {
    items: {
      id: string;
      name: string;
      state: CampaignState;
      createdBy: string;
      targets: Record<string, number>;
    }[];
    truncated: boolean;
  };
  effectNotVerified: {
    total: number;
    items: { id: string; deviceId: string; tool: string; verdict: Verdict; verdictReason: string | null }[];
    truncated: boolean;
  };
  evidenceCompleteness: {
    sealedCalls: number;
    complete: number;
    incomplete: number;
    items: { id: string; deviceId: string; tool: string; verdict: Verdict; missing: EvidenceStage[] }[];
    truncated: boolean;
  };
}

export type AuditCsvSection = 'calls' | 'approvals' | 'campaigns' | 'summary';

export interface IntegrityReport {
  ok: boolean;
  checkedDevices: number;
  checkedRows: number;
  checkedHeads: number;
  checkedSeals: number;
  broken: {
    deviceId: string;
    seq: string;
    evidenceId: string;
    callId: string;
    /** The five stages, or the call's seal link. */
    stage: EvidenceStage | 'seal';
    problem: 'hash_mismatch' | 'prev_hash_mismatch' | 'seq_gap' | 'head_mismatch';
    detail: string;
  }[];
  /** Sealed calls whose row no longer says what their seal in the chain says, field by field. */
  sealMismatches: {
    callId: string;
    deviceId: string;
    field: 'seal' | 'deviceId' | 'verdict' | 'reason' | 'sealedAt';
    call: string | null;
    seal: string | null;
    detail: string;
  }[];
  sealMismatchCount: number;
}

/** The refusal every 4xx carries: `field` is `body.rollout.maxInFlight`, `query.limit`, ... */
export interface ApiErrorBody {
  statusCode: number;
  code: string;
  message: string;
  issues?: { field: string; message: string }[];
}
