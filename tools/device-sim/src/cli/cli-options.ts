import { parseArgs } from 'node:util';
import type { FaultKnobs } from '../device/faults';
import type { ImageCrash } from '../firmware/flash-slots';

export interface CliOptions {
  readonly dialect: 'xiaozhi' | 'listenai';
  readonly devices: number;
  readonly otaUrl: string | undefined;
  /** Start a local OTA server that sends devices to this MQTT host:port. */
  readonly localOta: { host: string; port: number } | undefined;
  readonly localOtaPort: number;
  readonly signingKey: string;
  readonly relayTools: number;
  readonly macPrefix: string;
  readonly firstIndex: number;
  readonly firmwareVersion: string;
  readonly bootRate: number;
  readonly timeScale: number;
  readonly keepaliveSec: number;
  readonly reconnectJitter: number;
  readonly stateFile: string | undefined;
  readonly summaryEverySec: number;
  readonly verbose: boolean;
  /** Devices get eFuse serials and HMAC keys derived from this seed (activation v2). */
  readonly efuseSeed: string | undefined;
  /** Print the devices' serial,key CSV (for POST /api/v1/serial-keys) and exit. */
  readonly printEfuseCsv: boolean;
  readonly faults: Partial<FaultKnobs>;
  /** ListenAI: the link (one URL or several, tried in turn), tokens by MAC, registration, tools per page. */
  readonly listenai: {
    readonly linkUrls: readonly string[];
    readonly tokensFile: string | undefined;
    readonly registerAt: string | undefined;
    readonly model: string;
    readonly pageSize: number;
  };
}

export const USAGE = `Usage: npm run sim -- --devices N (--ota-url URL | --local-ota HOST:PORT) [options]
       npm run sim -- --dialect listenai --devices N --link-url URL (--tokens-file PATH | --register API_URL)

Devices:
  --devices N              how many devices (default 1)
  --ota-url URL            the platform's OTA URL, e.g. http://127.0.0.1:8081/xiaozhi/ota/
  --local-ota HOST:PORT    start a local OTA server instead, sending devices to this MQTT broker
  --local-ota-port N       its HTTP port (default: any free port)
  --signing-key KEY        HMAC key for the local OTA server's MQTT passwords (default: sim-signing-key)
  --board-tools N          relay board tools self.board.relay_NN.set (default 40)
  --mac-prefix P           first 1-5 MAC octets (default 02:5a:00)
  --first-index N          index of the first device (default 0)
  --firmware-version V     version of the image at first boot (default 2.4.2)
  --boot-rate N            power-ons per second, so check-ins do not stampede (default 200)
  --time-scale X           multiply every firmware delay (default 1: real time)
  --keepalive S            MQTT keepalive when the OTA answer gives none (default 240)
  --reconnect-jitter X     0..1 spread on esp-mqtt's 10 s reconnect (default 0.2)
  --state-file PATH        load NVS from this JSON file and save it on exit and with each summary
  --summary-every S        seconds between summary lines (default 5)
  --verbose                log device events
  --efuse-seed SEED        give each device an eFuse serial and HMAC key derived from its MAC and SEED
                           (Activation-Version 2: it answers activation challenges with its HMAC)
  --print-efuse-csv        print those serials and keys as the CSV an admin imports (POST /api/v1/serial-keys)
                           and exit

ListenAI devices (seed 002) over the platform's WebSocket link:
  --dialect D              xiaozhi (default: MQTT, as above) or listenai
  --link-url URL[,URL]     the broker's link, e.g. ws://127.0.0.1:8086 (several: tried in turn on reconnect)
  --tokens-file PATH       the devices' link tokens, JSON {"<mac>": "<token>"}; read, and written by --register
  --register API_URL       register the devices without a token through the admin API (key in FLEET_API_KEY)
  --model M                the model registered devices get (default arcs-mini)
  --page-size N            tools per tools/list page (default 3: two pages)

Faults (fleet-wide; change them later by writing {"faults":{...}} lines to stdin):
  --drop-replies P         drop this share of MCP replies (0..1)
  --delay-replies MS       delay every MCP reply on the main task
  --lie                    state-changing tools answer "true" and change nothing
  --broken-json P          send this share of MCP replies cut short
  --fail-upgrades          firmware downloads fail
  --rollback-upgrades W    new images crash (before-check-in | after-check-in) and roll back, or never
                           confirm themselves (unconfirmed) and roll back at the next reboot
  --flap-every MS          drop the MQTT connection about this often (no boot, no check-in)
`;

const OPTIONS = {
  dialect: { type: 'string', default: 'xiaozhi' },
  'link-url': { type: 'string' },
  'tokens-file': { type: 'string' },
  register: { type: 'string' },
  model: { type: 'string', default: 'arcs-mini' },
  'page-size': { type: 'string', default: '3' },
  devices: { type: 'string', default: '1' },
  'ota-url': { type: 'string' },
  'local-ota': { type: 'string' },
  'local-ota-port': { type: 'string', default: '0' },
  'signing-key': { type: 'string', default: 'sim-signing-key' },
  'board-tools': { type: 'string', default: '40' },
  'mac-prefix': { type: 'string', default: '02:5a:00' },
  'first-index': { type: 'string', default: '0' },
  'firmware-version': { type: 'string', default: '2.4.2' },
  'boot-rate': { type: 'string', default: '200' },
  'time-scale': { type: 'string', default: '1' },
  keepalive: { type: 'string', default: '240' },
  'reconnect-jitter': { type: 'string', default: '0.2' },
  'state-file': { type: 'string' },
  'summary-every': { type: 'string', default: '5' },
  verbose: { type: 'boolean', default: false },
  'efuse-seed': { type: 'string' },
  'print-efuse-csv': { type: 'boolean', default: false },
  'drop-replies': { type: 'string' },
  'delay-replies': { type: 'string' },
  lie: { type: 'boolean', default: false },
  'broken-json': { type: 'string' },
  'fail-upgrades': { type: 'boolean', default: false },
  'rollback-upgrades': { type: 'string' },
  'flap-every': { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** The options, or the text to print (help, or what was wrong). */
export function parseCliOptions(
  argv: readonly string[],
): { ok: true; options: CliOptions } | { ok: false; message: string } {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    });
    if (values.help) return { ok: false, message: USAGE };
    const num = (name: keyof typeof OPTIONS, value: string, min = 0, max = Infinity): number => {
      const n = Number(value);
      if (!Number.isFinite(n) || n < min || n > max)
        throw new Error(`--${name} must be a number in ${min}..${max}`);
      return n;
    };
    const int = (name: keyof typeof OPTIONS, value: string, min = 0) => {
      const n = num(name, value, min);
      if (!Number.isInteger(n)) throw new Error(`--${name} must be an integer`);
      return n;
    };
    if (values['print-efuse-csv'] && values['efuse-seed'] === undefined) {
      throw new Error('--print-efuse-csv needs --efuse-seed SEED');
    }
    const dialect = values.dialect;
    if (dialect !== 'xiaozhi' && dialect !== 'listenai')
      throw new Error('--dialect must be xiaozhi or listenai');
    if (
      dialect === 'xiaozhi' &&
      !values['print-efuse-csv'] &&
      values['ota-url'] === undefined &&
      values['local-ota'] === undefined
    ) {
      throw new Error('give --ota-url URL or --local-ota HOST:PORT');
    }
    const linkUrls = (values['link-url'] ?? '').split(',').filter(Boolean);
    if (dialect === 'listenai') {
      if (linkUrls.length === 0) throw new Error('give --link-url URL for ListenAI devices');
      for (const url of linkUrls)
        if (!/^wss?:\/\//.test(url)) throw new Error(`--link-url must be ws:// or wss://, not ${url}`);
      if (!values['tokens-file'] && !values.register)
        throw new Error('give --tokens-file PATH or --register API_URL');
    }
    return {
      ok: true,
      options: {
        dialect,
        listenai: {
          linkUrls,
          tokensFile: values['tokens-file'],
          registerAt: values.register,
          model: values.model,
          pageSize: int('page-size', values['page-size'], 1),
        },
        devices: int('devices', values.devices, 1),
        otaUrl: values['ota-url'],
        localOta: values['local-ota'] === undefined ? undefined : hostPort(values['local-ota']),
        localOtaPort: int('local-ota-port', values['local-ota-port']),
        signingKey: values['signing-key'],
        relayTools: int('board-tools', values['board-tools']),
        macPrefix: values['mac-prefix'],
        firstIndex: int('first-index', values['first-index']),
        firmwareVersion: values['firmware-version'],
        bootRate: num('boot-rate', values['boot-rate'], 0.001),
        timeScale: num('time-scale', values['time-scale'], 0),
        keepaliveSec: int('keepalive', values.keepalive, 0),
        reconnectJitter: num('reconnect-jitter', values['reconnect-jitter'], 0, 1),
        stateFile: values['state-file'],
        summaryEverySec: num('summary-every', values['summary-every'], 0.1),
        verbose: values.verbose,
        efuseSeed: values['efuse-seed'],
        printEfuseCsv: values['print-efuse-csv'],
        faults: {
          ...(values['drop-replies'] !== undefined
            ? { dropReplies: num('drop-replies', values['drop-replies'], 0, 1) }
            : {}),
          ...(values['delay-replies'] !== undefined
            ? { replyDelayMs: num('delay-replies', values['delay-replies']) }
            : {}),
          ...(values.lie ? { lie: true } : {}),
          ...(values['broken-json'] !== undefined
            ? { brokenJson: num('broken-json', values['broken-json'], 0, 1) }
            : {}),
          ...(values['fail-upgrades'] ? { failUpgrades: true } : {}),
          ...(values['rollback-upgrades'] !== undefined
            ? { rollbackUpgrades: crashStage(values['rollback-upgrades']) }
            : {}),
          ...(values['flap-every'] !== undefined
            ? { flapEveryMs: num('flap-every', values['flap-every']) }
            : {}),
        },
      },
    };
  } catch (err) {
    return { ok: false, message: `${(err as Error).message}\n\n${USAGE}` };
  }
}

function hostPort(text: string): { host: string; port: number } {
  const match = /^([^:]+):(\d{1,5})$/.exec(text);
  if (!match) throw new Error(`--local-ota must be HOST:PORT, not ${text}`);
  return { host: match[1]!, port: Number(match[2]) };
}

function crashStage(text: string): ImageCrash {
  if (text === 'before-check-in' || text === 'after-check-in' || text === 'unconfirmed') return text;
  throw new Error('--rollback-upgrades must be before-check-in, after-check-in or unconfirmed');
}
