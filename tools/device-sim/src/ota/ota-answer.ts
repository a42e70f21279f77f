import { getItemCaseInsensitive, parseCJson, type CJsonValue } from '@fleet/protocol';

/**
 * What Ota::CheckVersion keeps from an answer, read with cJSON as the firmware reads it (xiaozhi §4.3).
 * server_time only sets the device clock, which nothing here observes.
 */
export interface OtaAnswer {
  /** The answer's `mqtt` members that NVS stores: strings and numbers (int32), in order. */
  readonly mqtt?: readonly (readonly [key: string, value: string | number])[];
  readonly hasWebsocket: boolean;
  readonly firmware?: { readonly version: string; readonly url: string; readonly force: boolean };
  readonly activation?: { readonly code?: string; readonly challenge?: string; readonly message?: string };
}

const str = (v: CJsonValue | undefined) => (v?.kind === 'string' ? v.value : undefined);

/** undefined when cJSON_Parse fails (an error: the check is retried). Any other JSON value is a success. */
export function readOtaAnswer(body: Uint8Array): OtaAnswer | undefined {
  const parsed = parseCJson(body);
  if (!parsed.ok) return undefined;
  const root = parsed.value;
  const section = (key: string) => {
    const v = getItemCaseInsensitive(root, key);
    return v?.kind === 'object' ? v : undefined;
  };
  const mqtt = section('mqtt');
  const firmware = section('firmware');
  const activation = section('activation');
  return {
    ...(mqtt ? { mqtt: storedMembers(mqtt) } : {}),
    hasWebsocket: section('websocket') !== undefined,
    ...(firmware ? readFirmware(firmware) : {}),
    ...(activation ? { activation: readActivation(activation) } : {}),
  };
}

function storedMembers(mqtt: Extract<CJsonValue, { kind: 'object' }>): [string, string | number][] {
  return mqtt.members.flatMap((m): [string, string | number][] => {
    if (m.value.kind === 'string') return [[m.key, m.value.value]];
    if (m.value.kind === 'number') return [[m.key, m.value.valueint]];
    return [];
  });
}

function readFirmware(firmware: CJsonValue): Pick<OtaAnswer, 'firmware'> {
  const version = str(getItemCaseInsensitive(firmware, 'version'));
  const url = str(getItemCaseInsensitive(firmware, 'url'));
  // Only considered when both are strings; force counts only as the number 1.
  if (version === undefined || url === undefined) return {};
  const force = getItemCaseInsensitive(firmware, 'force');
  return { firmware: { version, url, force: force?.kind === 'number' && force.valueint === 1 } };
}

function readActivation(activation: CJsonValue): NonNullable<OtaAnswer['activation']> {
  const code = str(getItemCaseInsensitive(activation, 'code'));
  const challenge = str(getItemCaseInsensitive(activation, 'challenge'));
  const message = str(getItemCaseInsensitive(activation, 'message'));
  return {
    ...(code !== undefined ? { code } : {}),
    ...(challenge !== undefined ? { challenge } : {}),
    ...(message !== undefined ? { message } : {}),
  };
}
