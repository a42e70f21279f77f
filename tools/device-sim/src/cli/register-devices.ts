import { z } from 'zod';

const issuedSchema = z.object({ deviceId: z.string(), token: z.object({ secret: z.string() }) });

/**
 * Registers ListenAI devices through the admin API (POST /api/v1/devices) and returns their link tokens. A device
 * already registered (409) keeps its place without a token: give its token in the tokens file, or issue a new one.
 */
export async function registerDevices(
  apiUrl: string,
  apiKey: string,
  macs: readonly string[],
  model: string,
  say: (line: string) => void,
): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const mac of macs) {
    const response = await fetch(new URL('/api/v1/devices', apiUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: mac, dialect: 'listenai', model }),
    });
    if (response.status === 409) {
      say(`${mac} is registered already and has no token in the tokens file: skipped`);
      continue;
    }
    if (response.status !== 201)
      throw new Error(`registering ${mac}: HTTP ${response.status} ${await response.text()}`);
    const issued = issuedSchema.parse(await response.json());
    tokens[issued.deviceId] = issued.token.secret;
  }
  return tokens;
}
