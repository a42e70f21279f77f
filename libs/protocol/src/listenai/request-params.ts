import type { JsonObject } from '../xiaozhi/common-schemas';

/**
 * The model's request params as ListenAI's cloud sends them (seed 002), so the orchestrator never writes
 * dialect-specific requests: `tools/list` always carries `cursor` ("" for the first page) and no
 * `withUserTools` (ListenAI tools declare no audience, so there is nothing to include); the vision capability
 * carries `token` as well as `url`.
 */
export function listenAiParams(method: string, params: JsonObject | undefined): JsonObject | undefined {
  switch (method) {
    case 'tools/list': {
      const cursor = typeof params?.['cursor'] === 'string' ? params['cursor'] : '';
      const { withUserTools: _dropped, ...rest } = params ?? {};
      return { ...rest, cursor };
    }
    case 'initialize': {
      const capabilities = params?.['capabilities'] as JsonObject | undefined;
      const vision = capabilities?.['vision'] as JsonObject | undefined;
      if (!vision) return params;
      return {
        ...params,
        capabilities: { ...capabilities, vision: { url: '', token: '', ...vision } },
      };
    }
    default:
      return params;
  }
}
