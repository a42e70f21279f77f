import type { CallRequestResult } from '@fleet/platform-client';
import { ApiError, conflict, notFound } from '../http/api-error';

/** A device in one of these takes no call: its credentials are refused, so nothing would reach it. */
export const UNAVAILABLE_STATUSES = ['revoked', 'decommissioned'] as const;

/** The API's answer to a call request the producer refused. */
export function refusal(deviceId: string, result: Extract<CallRequestResult, { ok: false }>): ApiError {
  switch (result.error) {
    case 'unknown_device':
      return notFound('device', deviceId);
    case 'device_unavailable':
      return conflict(
        'device_unavailable',
        `device ${deviceId} is ${result.deviceStatus}; nothing can be sent to it`,
      );
    case 'idempotency_conflict':
      return new ApiError(422, 'idempotency_key_reused', result.message);
  }
}
