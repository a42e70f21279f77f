import { ManualClock } from '../../test/manual-clock';
import { Backlight } from './backlight';

describe('the backlight', () => {
  it('ramps 1 % per step toward the target and reads the level reached so far', () => {
    const clock = new ManualClock();
    const light = new Backlight(clock, 5);
    light.restore(75);
    expect(light.current()).toBe(0);
    clock.advance(50);
    expect(light.current()).toBe(10);
    clock.advance(1000);
    expect(light.current()).toBe(75);
    expect(light.set(20, true)).toBe(true);
    clock.advance(12);
    expect(light.current()).toBe(73);
    clock.advance(1000);
    expect(light.current()).toBe(20);
  });

  it('does nothing, and saves nothing, when asked for the level it shows right now (mid-ramp too)', () => {
    const clock = new ManualClock();
    const light = new Backlight(clock, 5);
    light.restore(75);
    clock.advance(5 * 40);
    expect(light.set(40, true)).toBe(false);
    clock.advance(5 * 10);
    expect(light.current()).toBe(50); // the ramp to 75 carries on
  });

  it('restores a saved 0 as 10, and jumps when the step is 0', () => {
    const clock = new ManualClock();
    const light = new Backlight(clock, 0);
    light.restore(0);
    expect(light.current()).toBe(10);
  });
});
