import { firstLimit, type ResourceUse } from './first-limit';

const calm: ResourceUse = {
  devices: 1000,
  powerOnBusy: 0.5,
  checkInFailures: 0,
  bytesPerDevice: 100_000,
  memoryAvailable: 20e9,
  brokerOpenFiles: 1100,
  brokerOpenFilesLimit: 20_000,
};

describe('firstLimit', () => {
  it('names the CPU when check-ins timed out during power-on', () => {
    expect(firstLimit({ ...calm, checkInFailures: 3 }).resource).toBe('cpu');
  });

  it('names the CPU when the machine was saturated during power-on', () => {
    expect(firstLimit({ ...calm, powerOnBusy: 0.95 }).resource).toBe('cpu');
  });

  it('projects open files first when the descriptor limit is nearer than memory', () => {
    const limit = firstLimit(calm);
    expect(limit.resource).toBe('open files');
    // 1.1 descriptors per device, 18,900 left
    expect(limit.headroomDevices).toBe(17_181);
  });

  it('projects memory first when a device costs more memory than descriptors would allow', () => {
    const limit = firstLimit({ ...calm, bytesPerDevice: 2_000_000, brokerOpenFilesLimit: undefined });
    expect(limit.resource).toBe('memory');
    expect(limit.headroomDevices).toBe(10_000);
  });

  it('says the descriptors ran out when the broker is at its limit', () => {
    expect(firstLimit({ ...calm, brokerOpenFiles: 20_000 }).resource).toBe('open files');
  });
});
