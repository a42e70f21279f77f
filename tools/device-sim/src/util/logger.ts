/** The part of a pino logger the simulator uses; pass `pino()` or leave the default (silent). */
export interface SimLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export const SILENT_LOGGER: SimLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
};
