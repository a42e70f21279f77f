import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { generateLinkToken } from '@fleet/auth';
import { insertRegisteredListenAiDevice } from './listenai-devices.repository';

export interface RegisteredListenAiDevice {
  mac: string;
  token: string;
  tokenId: string;
}

/**
 * A ListenAI device as an operator's registration leaves it (an active device row of that dialect, a hashed
 * link token), written straight to the database for tests that are not about the registration API.
 */
export async function registerListenAiDevice(
  ownerPool: Pool,
  mac: string,
  { model = 'arcs-mini' }: { model?: string } = {},
): Promise<RegisteredListenAiDevice> {
  const token = generateLinkToken();
  const tokenId = randomUUID();
  await insertRegisteredListenAiDevice(ownerPool, {
    operatorId: randomUUID(),
    mac,
    clientId: randomUUID(),
    model,
    token: { id: tokenId, prefix: token.prefix, secretHash: token.secretHash },
  });
  return { mac, token: token.plaintext, tokenId };
}
