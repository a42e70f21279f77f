import { loadOrchestratorConfig } from './config';

const env = (extra: Record<string, string>) => ({ MQTT_PASSWORD: 'secret-0123456789abcdef', ...extra });

describe('the retired start-time readbacks', () => {
  it('refuse to start while MODEL_READBACKS or its file is still set, saying how to import the list', () => {
    expect(() => loadOrchestratorConfig(env({ MODEL_READBACKS: '[]' }))).toThrow(
      /MODEL_READBACKS: .*npm run db:import-readbacks/s,
    );
    expect(() => loadOrchestratorConfig(env({ MODEL_READBACKS_FILE: '/etc/readbacks.json' }))).toThrow(
      /MODEL_READBACKS_FILE: .*tool profiles/s,
    );
    expect(loadOrchestratorConfig(env({})).FIRMWARE_BASE_URL).toBeDefined();
  });
});
