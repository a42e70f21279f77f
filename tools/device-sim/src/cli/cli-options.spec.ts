import { parseCliOptions } from './cli-options';

describe('the simulator command line', () => {
  it('runs ListenAI devices on the link with tokens from a file or a registration', () => {
    const parsed = parseCliOptions([
      '--dialect',
      'listenai',
      '--devices',
      '5',
      '--link-url',
      'ws://a:8086,ws://b:8086',
      '--tokens-file',
      't.json',
      '--lie',
    ]);
    expect(parsed).toMatchObject({
      ok: true,
      options: {
        dialect: 'listenai',
        devices: 5,
        listenai: {
          linkUrls: ['ws://a:8086', 'ws://b:8086'],
          tokensFile: 't.json',
          pageSize: 3,
          model: 'arcs-mini',
        },
        faults: { lie: true },
      },
    });
  });

  it('says what a ListenAI fleet lacks, and keeps the xiaozhi rules', () => {
    const message = (argv: string[]) => {
      const parsed = parseCliOptions(argv);
      return parsed.ok ? '' : parsed.message.split('\n')[0];
    };
    expect(message(['--dialect', 'listenai', '--tokens-file', 't'])).toBe(
      'give --link-url URL for ListenAI devices',
    );
    expect(message(['--dialect', 'listenai', '--link-url', 'http://x'])).toBe(
      '--link-url must be ws:// or wss://, not http://x',
    );
    expect(message(['--dialect', 'listenai', '--link-url', 'ws://x'])).toBe(
      'give --tokens-file PATH or --register API_URL',
    );
    expect(message(['--dialect', 'zigbee'])).toBe('--dialect must be xiaozhi or listenai');
    expect(message([])).toBe('give --ota-url URL or --local-ota HOST:PORT');
  });
});
