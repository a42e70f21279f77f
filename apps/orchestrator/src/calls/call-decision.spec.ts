import { CAMPAIGN_TOOL_CHANGED, SYSTEM_REBOOT_TOOL, toolHash } from '@fleet/domain';
import { argumentsHash } from '@fleet/platform-client';
import type { CallRecord } from './call-record';
import type { ApprovalRecord } from './call-repository';
import { decide, type DecisionPorts } from './call-decision';
import { DeviceRuntime } from '../devices/device-runtime';
import type { CatalogTool, CatalogView } from '../discovery/catalog-view';

const WIFI = {
  name: 'self.system.reconfigure_wifi',
  description: 'Enter WiFi configuration mode. **CAUTION** You must ask the user to confirm this action.',
  inputSchema: { type: 'object', properties: {} },
  annotations: undefined,
  userOnly: false,
} as unknown as CatalogTool;
const UPGRADE = {
  ...WIFI,
  name: 'self.upgrade_firmware',
  description: 'Upgrade.',
  userOnly: true,
} as CatalogTool;

function readyDevice(): DeviceRuntime {
  const device = new DeviceRuntime('a0:85:e3:f4:49:34', 0);
  const catalog: CatalogView = {
    versionId: 'v1',
    version: 1,
    catalogId: 'c1',
    hash: 'h',
    discoveredAt: '2026-12-02T00:00:00.000Z',
    serverName: undefined,
    serverVersion: undefined,
    tools: new Map([WIFI, UPGRADE].map((t) => [t.name, t])),
    rules: [],
  };
  Object.assign(device, { online: true, connectionId: 'c', discoveredOn: 'c', catalog });
  return device;
}

function callOf(extra: Partial<CallRecord>): CallRecord {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    deviceId: 'a0:85:e3:f4:49:34',
    partition: 0,
    tool: WIFI.name,
    arguments: {},
    origin: 'operator',
    reason: null,
    operatorId: '00000000-0000-4000-8000-0000000000aa',
    apiKeyId: null,
    voiceTurnId: null,
    campaignId: null,
    agentId: null,
    parentCallId: null,
    state: 'awaiting_approval',
    verdict: null,
    jsonrpcId: null,
    connectionId: null,
    catalogVersionId: null,
    deadlineAt: new Date(Date.now() + 60_000),
    replyTimeoutMs: 1000,
    approvalTtlMs: null,
    effectDeadlineAt: null,
    requestContext: null,
    traceparent: null,
    cancelledBy: null,
    cancelReason: null,
    createdAt: new Date(),
    sentAt: null,
    written: new Set(),
    ...extra,
  };
}

/** A device no operator marked, in no group. */
const POLICY = {
  markings: new Map(),
  readOnlyMarkings: new Map(),
  profiles: [],
  groups: [],
  boundClientId: 'x',
};

function ports(
  approval?: Partial<ApprovalRecord>,
  campaign?: { approval: Partial<ApprovalRecord>; boundToolHash: string | null },
): DecisionPorts {
  return {
    config: { FIRMWARE_BASE_URL: 'http://fleet.local', ORDERING_RULES: [] },
    calls: {
      firmwareBySha: () => Promise.resolve(undefined),
      approvalOfCall: () =>
        approval
          ? Promise.resolve({
              id: 'a1',
              state: 'pending',
              argumentsHash: '',
              requestedBy: 'r',
              decidedBy: null,
              decidedAt: null,
              reason: null,
              expiresAt: new Date(Date.now() + 60_000),
              preflight: null,
              catalogVersionId: null,
              toolHash: null,
              ...approval,
            })
          : Promise.reject(new Error('a person was asked before pre-flight')),
      approvalOfCampaign: () =>
        Promise.resolve(
          campaign && {
            id: 'a2',
            state: 'approved' as const,
            argumentsHash: '',
            requestedBy: 'r',
            decidedBy: 'someone-else',
            decidedAt: new Date(),
            reason: null,
            expiresAt: new Date(Date.now() + 60_000),
            preflight: null,
            catalogVersionId: null,
            toolHash: null,
            ...campaign.approval,
          },
        ),
      approvedToolOfTarget: () => Promise.resolve(campaign?.boundToolHash),
    },
  };
}

const CAMPAIGN_ID = '00000000-0000-4000-8000-0000000000cc';

describe('deciding a call', () => {
  it('ends undelivered when the device was not ready before the deadline', async () => {
    const device = new DeviceRuntime('a0:85:e3:f4:49:34', 0);
    const d = await decide(
      ports(),
      callOf({ state: 'queued', deadlineAt: new Date(Date.now() - 1) }),
      device,
      POLICY,
    );
    expect(d).toMatchObject({ kind: 'conclude', conclusion: { verdict: 'undelivered' } });
  });

  it('refuses a tool that asks for confirmation to the LLM, naming why', async () => {
    const d = await decide(ports(), callOf({ origin: 'llm', operatorId: null }), readyDevice(), POLICY);
    expect(d).toMatchObject({ kind: 'conclude', conclusion: { verdict: 'rejected' } });
    if (d.kind === 'conclude') expect(d.conclusion.reason).toContain("asks for the user's confirmation");
  });

  it('offers system.reboot to a xiaozhi device only: a ListenAI link has no system message to carry it', async () => {
    const listenAi = readyDevice();
    listenAi.dialect = 'listenai';
    const onListenAi = await decide(
      ports(),
      callOf({ tool: SYSTEM_REBOOT_TOOL, state: 'queued' }),
      listenAi,
      POLICY,
    );
    expect(onListenAi).toMatchObject({ kind: 'conclude', conclusion: { verdict: 'rejected' } });
    if (onListenAi.kind === 'conclude') expect(onListenAi.conclusion.reason).toContain('no tool named');
    // On a xiaozhi device it is the gated tool it is: it waits for its approval.
    const onXiaozhi = await decide(
      ports({}),
      callOf({ tool: SYSTEM_REBOOT_TOOL, state: 'queued' }),
      readyDevice(),
      POLICY,
    );
    expect(onXiaozhi.kind === 'conclude' && onXiaozhi.conclusion.reason?.includes('no tool named')).toBe(
      false,
    );
  });

  it('ends an upgrade that names no registry image before anyone is asked', async () => {
    const call = callOf({ tool: UPGRADE.name });
    const d = await decide(ports(), call, readyDevice(), POLICY);
    expect(d).toMatchObject({ kind: 'conclude', conclusion: { verdict: 'rejected' } });
  });

  it('has a call that passed pre-flight wait for a person, with what pre-flight found and the tool it saw', async () => {
    const d = await decide(ports({ state: 'pending' }), callOf({}), readyDevice(), POLICY);
    expect(d).toMatchObject({
      kind: 'await_approval',
      found: { catalogVersionId: 'v1', toolHash: toolHash(WIFI), findings: { gate: expect.any(String) } },
    });
  });

  it('ends expired when the delivery deadline passed while it waited for approval', async () => {
    const call = callOf({ deadlineAt: new Date(Date.now() - 1) });
    const d = await decide(ports({ state: 'pending' }), call, readyDevice(), POLICY);
    expect(d).toMatchObject({ kind: 'conclude', conclusion: { verdict: 'expired' } });
  });

  it('voids an approval given under another definition of the tool', async () => {
    const approval = {
      state: 'approved' as const,
      decidedBy: 'someone-else',
      argumentsHash: argumentsHash('a0:85:e3:f4:49:34', WIFI.name, {}),
      toolHash: 'an older tool',
    };
    const d = await decide(ports(approval), callOf({}), readyDevice(), POLICY);
    expect(d).toMatchObject({ kind: 'conclude', conclusion: { verdict: 'rejected' } });
    if (d.kind === 'conclude') expect(d.conclusion.reason).toContain('the tool changed');
  });

  it('rejects a campaign call whose tool changed since the campaign was approved, naming why', async () => {
    const call = callOf({ origin: 'campaign', campaignId: CAMPAIGN_ID, operatorId: null, state: 'queued' });
    const changed = await decide(
      ports(undefined, { approval: {}, boundToolHash: 'the tool as it was approved' }),
      call,
      readyDevice(),
      POLICY,
    );
    expect(changed).toMatchObject({
      kind: 'conclude',
      conclusion: { verdict: 'rejected', reason: CAMPAIGN_TOOL_CHANGED },
      approval: { id: 'a2', state: 'approved', campaignId: CAMPAIGN_ID },
    });
    // Bound to the tool as it still is, or to nothing (approved before bindings, or the action was open), it runs.
    for (const boundToolHash of [toolHash(WIFI), null]) {
      const d = await decide(ports(undefined, { approval: {}, boundToolHash }), call, readyDevice(), POLICY);
      expect(d).toMatchObject({ kind: 'send', approval: { id: 'a2', campaignId: CAMPAIGN_ID } });
    }
  });

  it('rejects a call whose tool changed while it waited for approval: the person asked saw another tool', async () => {
    const d = await decide(
      ports({ state: 'pending', toolHash: 'the tool pre-flight saw' }),
      callOf({}),
      readyDevice(),
      POLICY,
    );
    expect(d).toMatchObject({ kind: 'conclude', conclusion: { verdict: 'rejected' } });
    if (d.kind === 'conclude')
      expect(d.conclusion.reason).toContain('the tool changed while the call waited');
  });
});
