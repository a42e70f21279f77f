import type { SimDevice } from '../device/sim-device';

export interface FleetSummary {
  readonly devices: number;
  /** Devices that finished at least one boot up to MQTT start (booted once and checked in). */
  readonly booted: number;
  readonly connected: number;
  readonly boots: number;
  readonly checkIns: number;
  readonly checkInFailures: number;
  readonly connects: number;
  readonly repliesSent: number;
  readonly repliesDropped: number;
  readonly messagesReceived: number;
  readonly crashes: number;
  readonly rollbacks: number;
  readonly upgrades: number;
  readonly flaps: number;
}

export function summarise(devices: readonly SimDevice[]): FleetSummary {
  const s = {
    devices: devices.length,
    booted: 0,
    connected: 0,
    boots: 0,
    checkIns: 0,
    checkInFailures: 0,
    connects: 0,
    repliesSent: 0,
    repliesDropped: 0,
    messagesReceived: 0,
    crashes: 0,
    rollbacks: 0,
    upgrades: 0,
    flaps: 0,
  };
  for (const d of devices) {
    const st = d.stats;
    if (st.otaCheckIns > 0) s.booted++;
    if (d.connected) s.connected++;
    s.boots += st.bootCount;
    s.checkIns += st.otaCheckIns;
    s.checkInFailures += st.otaFailures;
    s.connects += st.mqttConnectCount;
    s.repliesSent += st.repliesSent;
    s.repliesDropped += st.repliesDropped;
    s.messagesReceived += st.messagesReceived;
    s.crashes += st.crashes;
    s.rollbacks += st.rollbacks;
    s.upgrades += st.upgradesWritten;
    s.flaps += st.flaps;
  }
  return s;
}

/** One line for the CLI. */
export function summaryLine(s: FleetSummary, extra = ''): string {
  return (
    `booted ${s.booted}/${s.devices} connected ${s.connected} replies ${s.repliesSent}` +
    ` (dropped ${s.repliesDropped}) received ${s.messagesReceived} boots ${s.boots} check-ins ${s.checkIns}` +
    ` (failed ${s.checkInFailures}) connects ${s.connects} crashes ${s.crashes} rollbacks ${s.rollbacks}` +
    ` upgrades ${s.upgrades} flaps ${s.flaps}${extra}`
  );
}
