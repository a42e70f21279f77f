// Preloaded into a benchmarked service (`node --expose-gc -r …/gc-on-signal.js`): SIGUSR2 runs a full GC, so
// heap and RSS samples taken from outside measure live memory, not garbage that has not been collected yet.
process.on('SIGUSR2', () => {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
});
export {};
