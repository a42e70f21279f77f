import { SharedClock, sleep } from './clock';
import { TimerHeap } from './timer-heap';

describe('the timer heap', () => {
  it('gives back due callbacks earliest first, equal deadlines in insertion order, cancelled ones never', () => {
    const heap = new TimerHeap();
    const fired: string[] = [];
    heap.push(30, () => fired.push('c'));
    heap.push(10, () => fired.push('a'));
    const cancel = heap.push(20, () => fired.push('cancelled'));
    heap.push(10, () => fired.push('b'));
    cancel();
    expect(heap.live).toBe(3);
    for (const fn of heap.takeDue(25)) fn();
    expect(fired).toEqual(['a', 'b']);
    expect(heap.peek()).toBe(30);
  });

  it('stays correct through a compaction of many cancelled entries', () => {
    const heap = new TimerHeap();
    const cancels = Array.from({ length: 3000 }, (_, i) => heap.push(i, () => undefined));
    cancels.slice(0, 2500).forEach((c) => c());
    const order: number[] = [];
    heap.push(10_000, () => order.push(10_000));
    heap.push(2_999.5, () => order.push(2_999.5));
    for (const fn of heap.takeDue(Infinity)) fn();
    expect(heap.live).toBe(0);
    expect(order).toEqual([2_999.5, 10_000]);
  });
});

describe('the shared clock', () => {
  it('runs many timers from one Node timer, in deadline order', async () => {
    const clock = new SharedClock();
    const fired: number[] = [];
    for (const ms of [30, 10, 20]) clock.after(ms, () => fired.push(ms));
    await sleep(clock, 40);
    expect(fired).toEqual([10, 20, 30]);
    expect(clock.pending).toBe(0);
  });

  it('keeps running the others when one callback throws', async () => {
    const errors: unknown[] = [];
    const clock = new SharedClock((err) => errors.push(err));
    let ran = false;
    clock.after(1, () => {
      throw new Error('boom');
    });
    clock.after(1, () => {
      ran = true;
    });
    await sleep(clock, 10);
    expect(ran).toBe(true);
    expect(errors).toHaveLength(1);
  });
});
