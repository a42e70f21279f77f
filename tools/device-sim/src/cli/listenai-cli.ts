import { macFor } from '../device/identity';
import { ListenAiFleet } from '../listenai/listenai-fleet';
import type { CliOptions } from './cli-options';
import { registrationApiKey } from './config';
import { registerDevices } from './register-devices';
import { loadTokensFile, saveTokensFile } from './tokens-file';

/** `npm run sim -- --dialect listenai`: a fleet of ListenAI devices on the platform's link. */
export async function startListenAiCli(
  o: CliOptions,
  say: (line: string) => void,
): Promise<{ summary(): string; stop(): Promise<void> }> {
  const macs = Array.from({ length: o.devices }, (_, i) => macFor(o.macPrefix, o.firstIndex + i));
  const { tokensFile, registerAt } = o.listenai;
  const tokens = tokensFile ? await loadTokensFile(tokensFile) : {};
  const missing = macs.filter((mac) => tokens[mac] === undefined);
  if (missing.length > 0 && registerAt) {
    const key = registrationApiKey();
    if (!key) throw new Error('--register needs the admin API key in FLEET_API_KEY');
    Object.assign(tokens, await registerDevices(registerAt, key, missing, o.listenai.model, say));
    if (tokensFile) await saveTokensFile(tokensFile, tokens);
    say(`registered ${missing.length} devices${tokensFile ? `; tokens kept in ${tokensFile}` : ''}`);
  }
  const devices = macs.flatMap((mac) => (tokens[mac] ? [{ mac, token: tokens[mac] }] : []));
  if (devices.length < macs.length) say(`${macs.length - devices.length} devices have no token and stay off`);
  const { failUpgrades: _f, rollbackUpgrades: _r, ...faults } = o.faults;
  const fleet = new ListenAiFleet({
    devices,
    linkUrls: o.listenai.linkUrls,
    pageSize: o.listenai.pageSize,
    connectsPerSecond: o.bootRate,
    faults,
  });
  say(`${devices.length} ListenAI devices → ${o.listenai.linkUrls.join(', ')} at ${o.bootRate}/s`);
  fleet.start();
  return {
    summary: () => {
      const s = fleet.summary();
      return `${s.linked}/${s.devices} linked, ${s.links} links opened, ${s.refused} refused`;
    },
    stop: () => fleet.stop(),
  };
}
