import { randomUUID } from 'node:crypto';
import { functionFor, startScriptedOpenAi, toolResults, type ScriptedOpenAi } from './scripted-openai';
import { startVoicePlatform, type VoicePlatform } from './voice-platform';

// DESIGN §4 for a dialect without audiences: what the assistant may not call is the operator's marking alone.
describe('the voice assistant with a ListenAI device', () => {
  let openai: ScriptedOpenAi;
  let platform: VoicePlatform;

  beforeAll(async () => {
    openai = await startScriptedOpenAi();
    platform = await startVoicePlatform({
      LLM_PROVIDER: 'openai',
      LLM_URL: openai.url,
      LLM_API_KEY: 'test-key',
    });
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
    await openai?.close();
  });

  it('is offered the device tools but the one an operator marked sensitive, which it cannot call under a guessed name', async () => {
    const device = await platform.listenAiDevice();
    const operator = randomUUID();
    await platform.sql.query(
      `INSERT INTO operator (id, email, name, role) VALUES ($1, $2, 'Op', 'operator')`,
      [operator, `${operator}@example.com`],
    );
    await platform.sql.query(
      `INSERT INTO tool_marking (device_id, tool_name, sensitive, marked_by) VALUES ($1, 'take_photo', true, $2)`,
      [device.mac, operator],
    );
    openai.script = (body) =>
      toolResults(body).length === 0
        ? {
            toolCalls: [
              { name: functionFor(body, 'set_volume'), arguments: { value: 30 } },
              { name: 'take_photo', arguments: {} },
            ],
          }
        : { text: 'Done.' };
    const turn = await platform.waitTurn(await platform.utter(device, 'set the volume to 30'));
    const offered = openai.chats.at(-1)!.tools!.map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['set_screen', 'set_volume', 'get_volume']));
    expect(offered).not.toContain('take_photo');
    const calls = await platform.callsOf(turn.id);
    expect(calls.map((c) => [c.tool, c.origin, c.verdict])).toEqual(
      expect.arrayContaining([
        ['set_volume', 'llm', 'acknowledged'],
        ['take_photo', 'llm', 'rejected'],
      ]),
    );
    expect(device.state).toMatchObject({ volume: 30, photos: 0 });
    // DESIGN §1: no readback for this model, so the assistant does not claim the volume changed.
    expect(turn.reply).toContain('could not confirm');
  });
});
