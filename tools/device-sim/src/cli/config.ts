/** The only environment the simulator reads: the admin API key `--register` registers ListenAI devices with. */
export function registrationApiKey(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env['FLEET_API_KEY'] || undefined;
}
