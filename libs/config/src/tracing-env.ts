import { z } from 'zod';
import { envBoolean } from './env-types';

/**
 * The standard OpenTelemetry variables (the OTLP exporter reads the endpoint ones itself). Traces are always
 * made, so trace ids reach logs and cross services; they are exported only when configured.
 */
export const tracingEnv = {
  OTEL_SDK_DISABLED: envBoolean(false),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none', 'console']).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
};

export function otlpExportEnabled(env: {
  OTEL_SDK_DISABLED: boolean;
  OTEL_TRACES_EXPORTER?: string | undefined;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined;
}): boolean {
  if (env.OTEL_SDK_DISABLED || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return (
    env.OTEL_TRACES_EXPORTER === 'otlp' ||
    Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
  );
}
