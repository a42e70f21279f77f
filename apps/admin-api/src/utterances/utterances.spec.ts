import { createHash } from 'node:crypto';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { waitingJobs } from '../../test/queues';

describe('utterances', () => {
  let h: Harness;
  let operator: Person;
  let viewer: Person;
  let device: string;

  beforeAll(async () => {
    h = await startHarness();
    [operator, viewer] = [await h.person('operator'), await h.person('viewer')];
    device = (await insertDevices(h.pool, 1))[0]!;
  });
  afterAll(() => h.stop());

  it('turns text into a voice turn, keeps the text apart by its hash, and queues it for the voice worker', async () => {
    const text = '把音量调到四十';
    const r = await h.request('POST', `/api/v1/devices/${device}/utterances`, {
      key: operator.key,
      body: { text, language: 'zh-CN' },
    });
    expect(r.status).toBe(202);
    const hash = createHash('sha256').update(text).digest('hex');
    const turn = await h.pool.query(
      'SELECT source, device_id, transcript_hash, language FROM voice_turn WHERE id = $1',
      [r.body.id],
    );
    expect(turn.rows[0]).toEqual({
      source: 'text',
      device_id: device,
      transcript_hash: hash,
      language: 'zh-CN',
    });
    const transcript = await h.pool.query('SELECT text FROM voice_transcript WHERE hash = $1', [hash]);
    expect(transcript.rows[0].text).toBe(text);
    expect(await waitingJobs(h, 'voice-turns')).toContainEqual({
      name: 'voice.turn',
      data: { turnId: r.body.id },
    });

    const shown = await h.request('GET', `/api/v1/utterances/${r.body.id}`, { key: operator.key });
    expect(shown.body).toMatchObject({ id: r.body.id, transcript: text, calls: [], toolCalls: [] });
    expect((await h.request('GET', `/api/v1/utterances/${r.body.id}`, { key: viewer.key })).status).toBe(403);
  });

  it('still shows a turn whose transcript retention deleted', async () => {
    const r = await h.request('POST', `/api/v1/devices/${device}/utterances`, {
      key: operator.key,
      body: { text: 'forget me' },
    });
    await h.pool.query('DELETE FROM voice_transcript WHERE hash = $1', [
      createHash('sha256').update('forget me').digest('hex'),
    ]);
    const shown = await h.request('GET', `/api/v1/utterances/${r.body.id}`, { key: operator.key });
    expect(shown.body).toMatchObject({ transcript: null, transcriptHash: expect.any(String) });
  });

  it('wants some text, and a device that exists', async () => {
    const empty = await h.request('POST', `/api/v1/devices/${device}/utterances`, {
      key: operator.key,
      body: { text: '  ' },
    });
    expect(empty.body.issues[0].field).toBe('body.text');
    const nobody = await h.request('POST', '/api/v1/devices/ff:ff:ff:ff:ff:ff/utterances', {
      key: operator.key,
      body: { text: 'hi' },
    });
    expect(nobody.status).toBe(404);
  });
});
