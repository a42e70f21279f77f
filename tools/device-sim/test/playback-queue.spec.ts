import { PlaybackQueue } from '../src/voice/playback-queue';
import { ManualClock } from './manual-clock';

describe('the simulated local playback', () => {
  it('takes a frame duration per frame, queued after the frames before it', () => {
    const clock = new ManualClock();
    const queue = new PlaybackQueue(clock);
    expect(queue.remainingMs()).toBe(0);
    for (let i = 0; i < 10; i++) queue.played(60); // a burst faster than real time
    expect(queue.remainingMs()).toBe(600);
    clock.advance(250);
    expect(queue.remainingMs()).toBe(350);
    clock.advance(350);
    expect(queue.remainingMs()).toBe(0);
  });

  it('starts a frame that arrives after the queue drained at once, not after the silence', () => {
    const clock = new ManualClock();
    const queue = new PlaybackQueue(clock);
    queue.played(60);
    clock.advance(1000);
    queue.played(60);
    expect(queue.remainingMs()).toBe(60);
  });
});
