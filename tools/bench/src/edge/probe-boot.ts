import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import mqtt from 'mqtt';

/**
 * One new device's boot from 127.0.0.1: the OTA check-in (a Postgres write), then an MQTT CONNECT with what it
 * answered (a Postgres read); true when each answered within 5 s of being sent, the TCP handshake included (a
 * full accept queue leaves a connect retrying its SYN for minutes).
 */
export async function probeBoot(httpUrl: string, mqttPort: number): Promise<boolean> {
  const octet = () =>
    Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0');
  const mac = `02:ed:${octet()}:${octet()}:${octet()}:${octet()}`;
  try {
    const answer = await checkIn(`${httpUrl}/xiaozhi/ota/`, {
      'Device-Id': mac,
      'Client-Id': randomUUID(),
      'User-Agent': 'bread-compact-wifi/2.4.2',
    });
    const creds = (answer as { mqtt?: { client_id: string; username: string; password: string } }).mqtt;
    if (!creds) return false;
    const client = mqtt.connect({
      host: '127.0.0.1',
      port: mqttPort,
      clientId: creds.client_id,
      username: creds.username,
      password: creds.password,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    // Whichever comes first: the CONNACK, a refusal, a reset, or the connect timeout (an 'error').
    const accepted = await new Promise<boolean>((resolve) => {
      client.once('connect', () => resolve(true));
      client.once('error', () => resolve(false));
      client.once('close', () => resolve(false));
    });
    await client.endAsync(true);
    return accepted;
  } catch {
    return false;
  }
}

/** A check-in as the firmware sends it, on a connection of its own (no keep-alive). */
function checkIn(url: string, headers: Record<string, string>): Promise<unknown> {
  const body = '{"application":{"version":"2.4.2"},"board":{"type":"bread-compact-wifi"}}';
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { ...headers, 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            resolve(res.statusCode === 200 ? JSON.parse(text) : {});
          } catch {
            reject(new Error('the check-in answer is not JSON'));
          }
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error('check-in timed out')), 5_000);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.end(body);
  });
}
