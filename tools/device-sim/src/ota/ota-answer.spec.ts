import { readOtaAnswer } from './ota-answer';

const read = (json: string) => readOtaAnswer(Buffer.from(json));

describe('reading an OTA answer as the firmware does', () => {
  it('fails only on text cJSON cannot parse; any JSON value is an answer', () => {
    expect(read('{"mqtt":')).toBeUndefined();
    expect(read('"hello"')).toEqual({ hasWebsocket: false });
  });

  it('keeps the string and number members of mqtt for NVS, in order, numbers as int', () => {
    expect(read('{"MQTT":{"endpoint":"h:1883","keepalive":240.9,"nested":{},"flag":true}}')?.mqtt).toEqual([
      ['endpoint', 'h:1883'],
      ['keepalive', 240],
    ]);
  });

  it('considers firmware only with a string version and url, and force only as the number 1', () => {
    expect(read('{"firmware":{"version":"2.5.0"}}')?.firmware).toBeUndefined();
    expect(read('{"firmware":{"version":"2.5.0","url":"u","force":"1"}}')?.firmware).toEqual({
      version: '2.5.0',
      url: 'u',
      force: false,
    });
    expect(read('{"firmware":{"Version":"2.5.0","URL":"u","force":1}}')?.firmware).toEqual({
      version: '2.5.0',
      url: 'u',
      force: true,
    });
  });

  it('reads activation code, challenge and message when they are strings', () => {
    expect(read('{"activation":{"code":"123456","challenge":5,"message":"m"}}')?.activation).toEqual({
      code: '123456',
      message: 'm',
    });
  });
});
