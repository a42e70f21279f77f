import type { Aedes } from 'aedes';
import type { LinkCloseKind } from '@fleet/protocol';
import { internals } from '../mqtt/aedes-internals';
import type { LinkSession } from './link-session';

// Replicas tell each other about every new link on the shared emitter, as aedes does for MQTT client ids
// (`$SYS/<broker>/new/clients`). No client can publish or subscribe under $SYS (mqtt/access-control.ts).
const NEW_LINKS = (brokerId: string) => `$SYS/${brokerId}/listenai/new/links`;
const ANY_NEW_LINKS = '$SYS/+/listenai/new/links';

interface LinkNotice {
  mac: string;
  connectionId: string;
  openedAt: number;
}

/**
 * One link per device across every replica (DESIGN §3): a newer link takes over from the older one, as a
 * reconnect does. Of two links opened on different replicas at nearly the same moment, the one opened later
 * (then the greater connection id) stays, whichever notice arrives first.
 *
 * This is the link's own registry. The MQTT edge keeps the same rule through aedes' client ids; a shared
 * registry would key both by device id and close the older connection whichever edge holds it.
 */
export class LinkRegistry {
  private readonly byDevice = new Map<string, LinkSession>();

  constructor(private readonly aedes: Aedes) {
    internals(aedes).mq.on(ANY_NEW_LINKS, (packet, done) => {
      const from = packet.topic.split('/')[1];
      if (from !== aedes.id) {
        const notice = readNotice(packet.payload);
        if (notice) this.supersede(notice);
      }
      done();
    });
  }

  /** Records a new link, closing any older one of the device here and telling the other replicas. */
  adopt(session: LinkSession): void {
    const notice: LinkNotice = {
      mac: session.mac,
      connectionId: session.identity.connectionId,
      openedAt: session.openedAt.getTime(),
    };
    // On this replica the link that opened last is the newest, whatever the clock's resolution says.
    const current = this.byDevice.get(session.mac);
    if (current && current !== session) current.close('takeover');
    this.byDevice.set(session.mac, session);
    this.aedes.publish(
      {
        cmd: 'publish',
        topic: NEW_LINKS(this.aedes.id),
        payload: Buffer.from(JSON.stringify(notice)),
        qos: 0,
        retain: false,
        dup: false,
      },
      () => undefined,
    );
  }

  /** Forgets a link that ended (only if it is still the device's current one). */
  release(session: LinkSession): void {
    if (this.byDevice.get(session.mac) === session) this.byDevice.delete(session.mac);
  }

  /** Closes this replica's link of a device (revoked, decommissioned); how many it closed. */
  closeDevice(mac: string, kind: LinkCloseKind): number {
    const session = this.byDevice.get(mac);
    if (!session) return 0;
    session.close(kind);
    return 1;
  }

  /** Closes the links opened with a token that was just revoked. */
  closeToken(tokenId: string): number {
    let closed = 0;
    for (const session of this.byDevice.values()) {
      if (session.identity.tokenId !== tokenId) continue;
      session.close('token_revoked');
      closed++;
    }
    return closed;
  }

  all(): LinkSession[] {
    return [...this.byDevice.values()];
  }

  get size(): number {
    return this.byDevice.size;
  }

  private supersede(notice: LinkNotice): void {
    const current = this.byDevice.get(notice.mac);
    if (!current || current.identity.connectionId === notice.connectionId) return;
    const currentAt = current.openedAt.getTime();
    const newer =
      notice.openedAt > currentAt ||
      (notice.openedAt === currentAt && notice.connectionId > current.identity.connectionId);
    if (!newer) return;
    this.byDevice.delete(notice.mac);
    current.close('takeover');
  }
}

function readNotice(payload: Buffer | string): LinkNotice | undefined {
  try {
    const value = JSON.parse(payload.toString()) as Partial<LinkNotice>;
    return typeof value.mac === 'string' &&
      typeof value.connectionId === 'string' &&
      typeof value.openedAt === 'number'
      ? (value as LinkNotice)
      : undefined;
  } catch {
    return undefined;
  }
}
