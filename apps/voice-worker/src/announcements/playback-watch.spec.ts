import { PlaybackWatch } from './playback-watch';

const listen = (state: 'start' | 'stop') =>
  ({ session_id: 's1', type: 'listen', state, mode: 'auto' }) as const;

describe('watching an announcement play through', () => {
  it('takes a listen start only after tts stop: the one that opened the session is not an answer', async () => {
    const watch = new PlaybackWatch('s1');
    watch.signal(listen('start'));
    watch.ttsStopped();
    const result = watch.result(5_000);
    watch.signal(listen('start'));
    await expect(result).resolves.toMatchObject({ heard: 'listen_start', at: expect.any(Date) });
  });

  it('counts a listen stop or a closed session after tts stop as the device back to idle', async () => {
    const stop = new PlaybackWatch('s1');
    stop.ttsStopped();
    stop.signal(listen('stop'));
    await expect(stop.result(5_000)).resolves.toMatchObject({ heard: 'idle' });
    const closed = new PlaybackWatch('s1');
    closed.ttsStopped();
    closed.closed();
    await expect(closed.result(5_000)).resolves.toMatchObject({ heard: 'idle' });
  });

  it('records an abort or a close before tts stop as cut short', async () => {
    const aborted = new PlaybackWatch('s1');
    aborted.signal({ session_id: 's1', type: 'abort' });
    aborted.ttsStopped();
    aborted.signal(listen('start'));
    await expect(aborted.result(5_000)).resolves.toMatchObject({ heard: 'abort' });
    expect(aborted.aborted).toBe(true);
    const closed = new PlaybackWatch('s1');
    closed.closed();
    await expect(closed.result(5_000)).resolves.toMatchObject({ heard: 'closed' });
  });

  it('says none when nothing ends playback in the expected time', async () => {
    const watch = new PlaybackWatch('s1');
    watch.ttsStopped();
    await expect(watch.result(10)).resolves.toEqual({ heard: 'none' });
  });
});
