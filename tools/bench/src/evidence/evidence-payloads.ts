import type { EvidenceStage } from '@fleet/domain';

/**
 * Five payloads shaped like the orchestrator's for a read call (catalog version, decision with policy,
 * parameters, the JSON-RPC reply with the device's status, the effect): about 1 KB of JSON per call.
 */
export function readCallEvidence(
  callId: string,
  deviceId: string,
  k: number,
): { stage: EvidenceStage; payload: unknown }[] {
  const at = new Date().toISOString();
  return [
    {
      stage: 'discovery',
      payload: { catalogVersionId: callId, catalogHash: 'a'.repeat(64), toolCount: 53, discoveredAt: at },
    },
    {
      stage: 'decision',
      payload: {
        allowed: true,
        origin: 'operator',
        requestedBy: null,
        policy: { userOnly: false, ordering: [], limits: [] },
        reason: 'bench',
      },
    },
    {
      stage: 'parameters',
      payload: { tool: 'self.get_device_status', arguments: {}, validated: true, firmwareWouldUse: {} },
    },
    {
      stage: 'response',
      payload: {
        rpcId: k,
        receivedAt: at,
        raw: JSON.stringify({
          jsonrpc: '2.0',
          id: k,
          result: {
            content: [
              {
                type: 'text',
                text: JSON.stringify({
                  audio_speaker: { volume: 70 },
                  screen: { brightness: 75, theme: 'light' },
                  network: { type: 'wifi', ssid: 'bench', signal: 'strong' },
                  battery: { level: 100, charging: false },
                }),
              },
            ],
            isError: false,
          },
        }),
        deviceId,
      },
    },
    {
      stage: 'effect',
      payload: { recipe: 'read-only', outcome: 'verified', detail: 'the reply is the effect' },
    },
  ];
}
