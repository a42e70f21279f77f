import { isNewerFirmware } from '@fleet/protocol';
import { crash } from '../device/crash';
import type { DeviceHost } from '../device/device-host';
import type { Runtime } from '../device/runtime';
import { crashesAt, markValid, runningLabel } from '../firmware/flash-slots';
import { upgradeFirmware } from '../firmware/upgrade';
import { activate } from './activation';
import { readOtaAnswer, type OtaAnswer } from './ota-answer';
import { postCheckIn } from './ota-http';

const MAX_ATTEMPTS = 10;
// NVS keys are at most 15 characters; Settings::SetString wraps nvs_set_str in ESP_ERROR_CHECK, so a longer key
// in the answer's mqtt object aborts the firmware (settings.cc; xiaozhi §1.1).
const NVS_KEY_MAX = 15;

/**
 * Application::CheckNewVersion (xiaozhi §4.1, §4.3): check until an answer comes (10, 20, 40 s … between
 * failures, 10 attempts at most), upgrade if offered, mark the running image valid, run activation while the
 * answer asks for it and check again. Returns the last answer, or undefined when it gave up (MQTT then runs on
 * what NVS already holds).
 */
export async function checkNewVersion(host: DeviceHost, rt: Runtime): Promise<OtaAnswer | undefined> {
  const base = host.config.timings.otaRetryBaseMs;
  let failures = 0;
  let delay = base;
  for (;;) {
    rt.setState('activating');
    const answer = await checkVersion(host, rt);
    if (!answer) {
      if (++failures >= MAX_ATTEMPTS) return undefined;
      await rt.sleep(delay);
      delay *= 2;
      continue;
    }
    [failures, delay] = [0, base];
    // A freshly written image configured to misbehave dies here, before confirming itself (xiaozhi §4.3 end).
    if (crashesAt(host.nvs.flash, 'after-check-in'))
      return crash(host, rt, 'new image crashed after its check-in');
    const offer = answer.firmware;
    if (offer && (await offeredUpgrade(host, rt, offer))) await upgradeFirmware(host, rt, offer.url);
    if (!crashesAt(host.nvs.flash, 'unconfirmed')) host.nvs.flash = markValid(host.nvs.flash);
    const activation = answer.activation;
    if (activation?.code === undefined && activation?.challenge === undefined) return answer;
    await activate(host, rt, activation.challenge);
  }
}

/** Ota::CheckVersion: one POST; a non-200 or an unparsable body is a failure. NVS takes the mqtt section. */
async function checkVersion(host: DeviceHost, rt: Runtime): Promise<OtaAnswer | undefined> {
  const res = await postCheckIn(host, rt);
  rt.ensureAlive();
  const record = {
    status: res.status,
    version: host.runningImage().version,
    otaLabel: runningLabel(host.nvs.flash),
    at: host.clock.now(),
  };
  host.stats.otaCheckIns++;
  host.observed.checkIns.push(record);
  host.events.emit('check-in', record);
  const answer = res.ok && res.status === 200 ? readOtaAnswer(res.body) : undefined;
  if (!answer) {
    host.stats.otaFailures++;
    return undefined;
  }
  for (const [key, value] of answer.mqtt ?? []) {
    if (key.length > NVS_KEY_MAX)
      return crash(host, rt, `nvs_set: key "${key}" is longer than ${NVS_KEY_MAX}`);
    host.nvs.mqtt[key] = value;
  }
  return answer;
}

/** Ota::IsNewVersionAvailable, or force:1. A version std::stoi cannot read throws, and nothing catches it. */
async function offeredUpgrade(
  host: DeviceHost,
  rt: Runtime,
  offer: NonNullable<OtaAnswer['firmware']>,
): Promise<boolean> {
  const newer = isNewerFirmware(host.runningImage().version, offer.version);
  if (!newer.ok) return crash(host, rt, newer.error.message);
  return newer.value || offer.force;
}
