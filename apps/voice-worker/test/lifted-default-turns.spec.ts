import { randomUUID } from 'node:crypto';
import { BREAD_COMPACT_WIFI, type BoardConfig } from '@fleet/device-sim';
import { startScriptedOpenAi, type ScriptedOpenAi } from './scripted-openai';
import { startVoicePlatform, type VoicePlatform } from './voice-platform';

// A board tool whose warning is only in prose: sensitive by default (DESIGN §4) until an operator lifts that.
const CAUTIOUS_BOARD: BoardConfig = {
  ...BREAD_COMPACT_WIFI,
  boardName: 'esp-hi',
  boardType: 'esp-hi',
  boardTools: [
    {
      name: 'self.system.reconfigure_wifi',
      description:
        'End this conversation and enter WiFi configuration mode. **CAUTION** You must ask the user to confirm this action.',
      properties: [],
      userOnly: false,
    },
  ],
};

describe('the voice assistant and a tool sensitive by default', () => {
  let openai: ScriptedOpenAi;
  let platform: VoicePlatform;
  let operator: string;

  beforeAll(async () => {
    openai = await startScriptedOpenAi();
    platform = await startVoicePlatform({
      LLM_PROVIDER: 'openai',
      LLM_URL: openai.url,
      LLM_API_KEY: 'test-key',
    });
    operator = randomUUID();
    await platform.sql.query(
      `INSERT INTO operator (id, email, name, role) VALUES ($1, $2, 'Admin', 'admin')`,
      [operator, `${operator}@example.com`],
    );
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
    await openai?.close();
  });

  const offeredFor = async (mac: string): Promise<string[]> => {
    openai.script = () => ({ text: 'Hello.' });
    await platform.waitTurn(await platform.utter({ mac }, 'hello'));
    return openai.chats.at(-1)!.tools!.map((t) => t.function.name);
  };

  it('keeps it from the LLM while no operator marked it', async () => {
    const device = await platform.device({ board: CAUTIOUS_BOARD, relayTools: undefined });
    const offered = await offeredFor(device.mac);
    expect(offered).toContain('self_audio_speaker_set_volume');
    expect(offered).not.toContain('self_system_reconfigure_wifi');
  });

  it('offers it to the LLM once an operator lifted the default (sensitive: false)', async () => {
    const device = await platform.device({ board: CAUTIOUS_BOARD, relayTools: undefined });
    await platform.sql.query(
      `INSERT INTO tool_marking (device_id, tool_name, sensitive, marked_by)
       VALUES ($1, 'self.system.reconfigure_wifi', false, $2)`,
      [device.mac, operator],
    );
    expect(await offeredFor(device.mac)).toContain('self_system_reconfigure_wifi');
  });

  it('still keeps it from the LLM when the marking says only read-only', async () => {
    const device = await platform.device({ board: CAUTIOUS_BOARD, relayTools: undefined });
    await platform.sql.query(
      `INSERT INTO tool_marking (device_id, tool_name, read_only, marked_by)
       VALUES ($1, 'self.system.reconfigure_wifi', true, $2)`,
      [device.mac, operator],
    );
    expect(await offeredFor(device.mac)).not.toContain('self_system_reconfigure_wifi');
  });
});
