import { createFleet, FAST_TIMINGS, type Fleet, type SimDevice } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import { startTopology, type Topology } from '../test/topology';

// The multi-replica topology of deploy/ on loopback: two brokers behind a TCP balancer and two orchestrators sharing
// one Redis and one Postgres serve one simulated fleet; a replica of each kind is SIGKILLed with calls in flight.
// No call may be lost (every one ends with a verdict and its five evidence rows) or sent twice (the devices' own
// record of what they received), and the survivors then serve the whole fleet.

const DEVICES = 12;
/** Verdicts that say the device got the request (it answered, or its effect was observed). */
const DELIVERED = new Set(['verified', 'acknowledged', 'device_error', 'effect_mismatch']);

interface CallRow {
  id: string;
  device_id: string;
  tool: string;
  origin: string;
  state: string;
  verdict: string | null;
  reason?: string | null;
  jsonrpc_id: number | null;
}

describe('two brokers and two orchestrators serving one fleet', () => {
  let t: Topology;
  let fleet: Fleet;
  let round = 0;

  const holders = async (): Promise<Map<string, string>> => {
    const { rows } = await t.sql.query<{ device_id: string; broker_id: string }>(
      `SELECT d.id AS device_id, c.broker_id FROM device d JOIN connection c ON c.id = d.connection_id
        WHERE d.online AND c.closed_at IS NULL`,
    );
    return new Map(rows.map((r) => [r.device_id, r.broker_id]));
  };

  /** One call per device: reads and verified writes alternating, each write to a volume it never had. */
  const callEveryDevice = async (): Promise<string[]> => {
    round++;
    return Promise.all(
      fleet.devices.map(async (device, i) => {
        const write = i % 2 === 1;
        const result = await t.calls.request({
          deviceId: device.mac,
          tool: write ? 'self.audio_speaker.set_volume' : 'self.get_device_status',
          arguments: write ? { volume: 10 + ((round * 13 + i) % 80) } : {},
          origin: 'operator',
          operatorId: t.operatorId,
          replyTimeoutMs: 2_000,
        });
        if (!result.ok) throw new Error(result.message);
        return result.callId;
      }),
    );
  };

  const sealed = async (ids: string[], timeoutMs = 30_000) => {
    const read = async () =>
      (
        await t.sql.query<CallRow>(
          'SELECT id, device_id, tool, origin, state, verdict, reason, jsonrpc_id FROM call WHERE id = ANY($1)',
          [ids],
        )
      ).rows;
    try {
      return await waitFor(
        async () => {
          const rows = await read();
          return rows.length === ids.length && rows.every((r) => r.verdict !== null) && rows;
        },
        { what: `verdicts of ${ids.length} calls`, timeoutMs, intervalMs: 100 },
      );
    } catch (err) {
      const open = (await read()).filter((r) => r.verdict === null);
      const logs = [...t.orchestrators].map(
        ([id, p]) =>
          `${id}:\n${p.logs
            .filter((l) => !l.includes('"level":30') || /partition|call/.test(l))
            .slice(-60)
            .join('\n')}`,
      );
      throw new Error(`${(err as Error).message}; still open: ${JSON.stringify(open)}\n${logs.join('\n')}`);
    }
  };

  /** Times the device received this call's tools/call request (its JSON-RPC id is unique per device). */
  const receivedTimes = (device: SimDevice, jsonrpcId: number) =>
    device.observed.received.all.filter((m) => {
      try {
        const { payload } = JSON.parse(m.text) as { payload?: { id?: unknown; method?: string } };
        return payload?.method === 'tools/call' && payload.id === jsonrpcId;
      } catch {
        return false;
      }
    }).length;

  /**
   * Every call ever made in this platform (prerequisites the ordering rules added included) has a verdict and its
   * five evidence rows, and reached its device at most once; exactly once when the verdict says it got there.
   */
  const expectNoCallLostOrRepeated = async () => {
    const { rows } = await t.sql.query<CallRow & { stages: number }>(
      `SELECT c.id, c.device_id, c.tool, c.origin, c.state, c.verdict, c.jsonrpc_id,
              (SELECT count(DISTINCT e.stage)::int FROM evidence e WHERE e.call_id = c.id AND e.stage <> 'seal') AS stages
         FROM call c`,
    );
    expect(rows.filter((r) => r.verdict === null)).toEqual([]);
    expect(rows.filter((r) => r.stages !== 5)).toEqual([]);
    const deliveries = rows.map((r) => {
      const times = r.jsonrpc_id === null ? 0 : receivedTimes(fleet.byMac(r.device_id)!, r.jsonrpc_id);
      return { id: r.id, verdict: r.verdict, times };
    });
    expect(deliveries.filter((d) => d.times > 1)).toEqual([]);
    expect(deliveries.filter((d) => DELIVERED.has(d.verdict!) && d.times !== 1)).toEqual([]);
    return rows;
  };

  const tally = (rows: CallRow[]) =>
    rows.reduce<Record<string, number>>((n, r) => ({ ...n, [r.verdict!]: (n[r.verdict!] ?? 0) + 1 }), {});

  beforeAll(async () => {
    t = await startTopology();
    await waitFor(
      async () => {
        const { rows } = await t.sql.query<{ holder: string; n: number }>(
          `SELECT holder, count(*)::int AS n FROM service_lease
            WHERE name LIKE 'calls-p%' AND expires_at > now() GROUP BY holder`,
        );
        return rows.length === 2 && rows.every((r) => r.n === 8);
      },
      { what: 'the 16 call partitions split between the orchestrators', timeoutMs: 20_000 },
    );
    fleet = createFleet({
      count: DEVICES,
      otaUrl: t.otaUrl,
      timings: FAST_TIMINGS,
      relayTools: 0,
      recordLimit: 5_000,
    });
    await fleet.start();
    await waitFor(
      async () => {
        const { rows } = await t.sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM device WHERE online AND catalog_version_id IS NOT NULL',
        );
        return rows[0]!.n === DEVICES;
      },
      { what: 'every device online and discovered', timeoutMs: 30_000 },
    );
  }, 90_000);

  afterAll(async () => {
    await fleet?.stop();
    await t?.close();
  });

  it('spreads the devices over both brokers through the load balancer, each advertising its own UDP port', async () => {
    const held = await waitFor(async () => {
      const h = await holders();
      return h.size === DEVICES && h;
    });
    const byBroker = new Map<string, string[]>();
    for (const [mac, broker] of held) byBroker.set(broker, [...(byBroker.get(broker) ?? []), mac]);
    expect([...byBroker.keys()].sort()).toEqual(['broker-a', 'broker-b']);
    console.log(
      `deploy-check: devices per broker ${JSON.stringify(Object.fromEntries([...byBroker].map(([b, m]) => [b, m.length])))}, ` +
        `MQTT connections per backend ${JSON.stringify(t.mqttBalancer.accepted())}`,
    );

    // The hello that opens a voice session names the UDP address of the replica holding the device's connection.
    for (const [broker, macs] of byBroker) {
      const device = fleet.byMac(macs[0]!)!;
      await device.openVoiceSession();
      const hello = device.observed.received.all
        .map((m) => JSON.parse(m.text) as { type?: string; udp?: { server: string; port: number } })
        .find((m) => m.type === 'hello');
      expect(hello?.udp).toEqual(
        expect.objectContaining({ server: '127.0.0.1', port: t.brokers.get(broker)!.ports['udp'] }),
      );
      await device.closeVoiceSession();
    }
    expect(t.brokers.get('broker-a')!.ports['udp']).not.toBe(t.brokers.get('broker-b')!.ports['udp']);
  }, 30_000);

  it('loses no call when a broker is SIGKILLed with calls in flight: its devices reconnect through the other', async () => {
    const before = await sealed(await callEveryDevice());
    expect(tally(before)).toEqual({ verified: DEVICES });

    const onA = [...(await holders())].filter(([, broker]) => broker === 'broker-a').map(([mac]) => mac);
    expect(onA.length).toBeGreaterThan(0);
    const during = callEveryDevice();
    expect(await t.brokers.get('broker-a')!.stop('SIGKILL')).toBe(null);
    const duringRows = await sealed(await during);
    await waitFor(
      async () => {
        const h = await holders();
        return h.size === DEVICES && [...h.values()].every((b) => b === 'broker-b');
      },
      { what: "broker-a's devices back through broker-b", timeoutMs: 20_000 },
    );
    console.log(`deploy-check: calls in flight when broker-a died: ${JSON.stringify(tally(duringRows))}`);
    expect(duringRows.filter((r) => !['verified', 'no_response'].includes(r.verdict!))).toEqual([]);

    const after = await sealed(await callEveryDevice());
    expect(tally(after)).toEqual({ verified: DEVICES });
    await expectNoCallLostOrRepeated();
    // Its connection rows are closed by broker-b once broker-a's heartbeat runs out, saying why.
    const closed = await waitFor(
      async () => {
        const { rows } = await t.sql.query<{ open: number; lost: number }>(
          `SELECT count(*) FILTER (WHERE closed_at IS NULL)::int AS open,
                  count(*) FILTER (WHERE close_reason = 'broker_lost')::int AS lost
             FROM connection WHERE broker_id = 'broker-a'`,
        );
        return rows[0]!.open === 0 && rows[0]!;
      },
      { what: "broker-a's connection rows closed (its heartbeat runs out after 10 s)", timeoutMs: 30_000 },
    );
    expect(closed.lost).toBeGreaterThan(0);
    console.log(`deploy-check: connection rows of the dead broker-a closed as broker_lost: ${closed.lost}`);
  }, 90_000);

  it('loses no call when an orchestrator is SIGKILLed with calls in flight: the other takes its partitions', async () => {
    const during = callEveryDevice();
    expect(await t.orchestrators.get('orchestrator-a')!.stop('SIGKILL')).toBe(null);
    const duringRows = await sealed(await during);
    await waitFor(
      async () => {
        const { rows } = await t.sql.query<{ holder: string; n: number }>(
          `SELECT holder, count(*)::int AS n FROM service_lease
            WHERE name LIKE 'calls-p%' AND expires_at > now() GROUP BY holder`,
        );
        return rows.length === 1 && rows[0]!.holder === 'orchestrator-b' && rows[0]!.n === 16;
      },
      { what: 'orchestrator-b holding all 16 partitions', timeoutMs: 20_000 },
    );
    console.log(
      `deploy-check: calls in flight when orchestrator-a died: ${JSON.stringify(tally(duringRows))}`,
    );
    expect(duringRows.filter((r) => !['verified', 'no_response'].includes(r.verdict!))).toEqual([]);

    const after = await sealed(await callEveryDevice());
    expect(tally(after)).toEqual({ verified: DEVICES });
    const all = await expectNoCallLostOrRepeated();
    console.log(`deploy-check: every call of the run: ${JSON.stringify(tally(all))}`);
  }, 90_000);
});
