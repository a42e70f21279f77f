import { MainTask, PoweredOff } from './main-task';

describe('the main task', () => {
  it('runs jobs one at a time in order, a waiting job holding back the ones behind it', async () => {
    const order: string[] = [];
    const task = new MainTask(() => undefined);
    let release = () => undefined as void;
    task.schedule(async () => {
      order.push('a start');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('a end');
    });
    task.schedule(() => {
      order.push('b');
      task.schedule(() => {
        order.push('d (scheduled by b)');
      });
    });
    task.schedule(() => {
      order.push('c');
    });
    await Promise.resolve();
    expect(order).toEqual(['a start']);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['a start', 'a end', 'b', 'c', 'd (scheduled by b)']);
  });

  it('loses everything still queued when halted, and reports errors other than a power loss', async () => {
    const errors: unknown[] = [];
    const task = new MainTask((err) => errors.push(err));
    const ran: string[] = [];
    task.schedule(() => {
      throw new PoweredOff();
    });
    task.schedule(() => {
      throw new Error('bug');
    });
    task.schedule(() => {
      ran.push('before halt');
      task.halt();
    });
    task.schedule(() => {
      ran.push('after halt');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['before halt']);
    expect(errors).toEqual([new Error('bug')]);
    task.schedule(() => {
      ran.push('scheduled after halt');
    });
    expect(task.pending).toBe(0);
  });
});
