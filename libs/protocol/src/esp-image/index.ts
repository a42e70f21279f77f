export * from './esp-image-format';
export * from './esp-image-checks';
export * from './verify-esp-image';
export * from './build-esp-image';
export * from './board-fit';
