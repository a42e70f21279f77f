import WebSocket from 'ws';
import { LISTENAI_LINK_PATH } from '@fleet/protocol';
import { getJson } from '@fleet/testing';
import type { ChaosPlatform } from './chaos-platform';
import type { FaultCase } from './run-case';

/** What a stranger with no token sends in the moment between the link's refusal and the socket's end. */
export const STRANGER_FRAMES = {
  /** Past the link's 64 KB frame limit. */
  oversized: 'x'.repeat(70 * 1024),
  /** A text frame that is not UTF-8 (a lone continuation byte, then an unfinished sequence). */
  badUtf8: Buffer.from([0x80, 0xc3, 0x28, 0xe2]),
};

export interface StrangerLink {
  /** Whether the upgrade was accepted (a link may also refuse before it: then nothing could be sent). */
  opened: boolean;
  /** The close code the stranger saw (1006: the socket ended without a close frame). */
  closeCode: number;
}

/**
 * Opens the ListenAI link with no token and sends one frame at once, inside the refused window (the link answers
 * the missing token with a close and keeps the socket a moment); resolves once the socket has ended.
 */
export function sendAsStranger(url: string, frame: string | Buffer): Promise<StrangerLink> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    let opened = false;
    socket.on('open', () => {
      opened = true;
      // A Buffer sent as text goes out as it is: the client does not check what it sends.
      socket.send(frame, { binary: false });
    });
    socket.on('error', () => undefined); // the end is what counts: 'close' follows every error
    socket.on('close', (closeCode) => resolve({ opened, closeCode }));
  });
}

/** Whether the broker process is alive and answers /healthz with 200. */
export async function brokerServing(p: ChaosPlatform): Promise<boolean> {
  const broker = p.service('broker');
  if (broker.child.exitCode !== null || broker.child.signalCode !== null) return false;
  const health = await getJson(`http://127.0.0.1:${broker.ports['http']}/healthz`).catch(() => ({
    status: 0,
  }));
  return health.status === 200;
}

/**
 * "A device's frame kills the broker": a stranger's oversized and bad-UTF-8 frames on a refused link. The bar is
 * that the broker is still serving afterwards; if it is not, the case restarts it (as `npm start` and Kubernetes
 * would) so that what was in flight can still be counted, and says so.
 */
export function strangerFramesCase(): { fault: FaultCase; brokerDied(): boolean; links: StrangerLink[] } {
  let died = false;
  const links: StrangerLink[] = [];
  const fault: FaultCase = {
    name: "a stranger's frames on a refused ListenAI link",
    async inject(p) {
      const url = `ws://127.0.0.1:${p.service('broker').ports['link']}${LISTENAI_LINK_PATH}`;
      for (const frame of [STRANGER_FRAMES.oversized, STRANGER_FRAMES.badUtf8]) {
        links.push(await sendAsStranger(url, frame));
      }
    },
    async heal(p) {
      if (await brokerServing(p)) return;
      died = true;
      await p.start('broker');
    },
  };
  return { fault, brokerDied: () => died, links };
}
