import { describeOpenFiles, parseOpenFilesLimit } from './open-files';

describe('the open-files limit', () => {
  it('reads the soft and hard limit out of /proc/<pid>/limits', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             63471                63471                processes ',
      'Max open files            1024                 524288               files     ',
    ].join('\n');
    expect(parseOpenFilesLimit(limits)).toEqual({ soft: 1024, hard: 524288 });
    expect(parseOpenFilesLimit('Max open files  unlimited  unlimited  files')).toEqual({
      soft: 'unlimited',
      hard: 'unlimited',
    });
    expect(parseOpenFilesLimit('nothing here')).toBeUndefined();
  });

  it('says when a service runs below its hard limit', () => {
    expect(describeOpenFiles({ soft: 20000, hard: 20000 })).toBe('; open files 20000 (its hard limit)');
    expect(describeOpenFiles({ soft: 1024, hard: 20000 })).toMatch(/below its hard limit 20000/);
    expect(describeOpenFiles(undefined)).toBe('');
  });
});
