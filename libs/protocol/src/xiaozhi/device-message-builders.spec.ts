import { deviceMessage } from './device-message-builders';

describe('device → server messages as the firmware writes them', () => {
  it('writes the hello with cJSON in the firmware key order', () => {
    expect(
      deviceMessage.hello({
        serverAec: true,
        glyphPush: true,
        textFont: { bundle: 'noto-v1', charset: 'common', size: 20, bpp: 4 },
      }),
    ).toBe(
      '{"type":"hello","version":3,"transport":"udp","features":{"aec":true,"mcp":true,"glyph_push":true},"text_font":{"bundle":"noto-v1","charset":"common","size":20,"bpp":4},"audio_params":{"format":"opus","sample_rate":16000,"channels":1,"frame_duration":60}}',
    );
  });

  it('leaves out aec without server AEC and text_font without glyph push', () => {
    expect(deviceMessage.hello({ serverAec: false, glyphPush: false })).toBe(
      '{"type":"hello","version":3,"transport":"udp","features":{"mcp":true,"glyph_push":false},"audio_params":{"format":"opus","sample_rate":16000,"channels":1,"frame_duration":60}}',
    );
  });

  it('writes listen, abort, goodbye and the mcp envelope by concatenation', () => {
    expect(deviceMessage.listenStart('S', 'auto')).toBe(
      '{"session_id":"S","type":"listen","state":"start","mode":"auto"}',
    );
    expect(deviceMessage.listenStop('S')).toBe('{"session_id":"S","type":"listen","state":"stop"}');
    expect(deviceMessage.listenDetect('S', '你好小智')).toBe(
      '{"session_id":"S","type":"listen","state":"detect","text":"你好小智"}',
    );
    expect(deviceMessage.abort('S', 'wake_word_detected')).toBe(
      '{"session_id":"S","type":"abort","reason":"wake_word_detected"}',
    );
    expect(deviceMessage.goodbye('S')).toBe('{"session_id":"S","type":"goodbye"}');
    expect(deviceMessage.mcp('', '{"x":1}')).toBe('{"session_id":"","type":"mcp","payload":{"x":1}}');
  });
});
