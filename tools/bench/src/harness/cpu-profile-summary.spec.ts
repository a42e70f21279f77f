import { summarizeCpuProfile, type CpuProfile } from './cpu-profile-summary';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });

describe('a CPU profile summary', () => {
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(idle)', '') },
      { id: 2, callFrame: frame('parse', 'file:///w/node_modules/zod/v4/core/parse.js') },
      { id: 3, callFrame: frame('guard', 'file:///w/dist/apps/admin-api/src/auth/auth.guard.js') },
      { id: 4, callFrame: frame('query', 'file:///w/node_modules/@prisma/client/runtime/x.js') },
    ],
    samples: [1, 2, 2, 3, 4, 1],
    timeDeltas: [5000, 1000, 1000, 500, 1500, 9000],
  };

  it('counts self time by function and by package, leaving idle time out', () => {
    const summary = summarizeCpuProfile(profile);
    expect(summary.busyMs).toBe(4);
    expect(summary.functions[0]).toEqual({ name: 'parse zod/v4/core/parse.js:10', ms: 2, share: 0.5 });
    expect(summary.places.map((p) => p.name)).toEqual([
      'zod',
      '@prisma/client',
      'apps/admin-api/src/auth/auth.guard.js',
    ]);
  });
});
