import { pinnedPorts } from './services';

describe('ports kept across a restart', () => {
  it('sets each reported port through its variable', () => {
    expect(pinnedPorts({ mqtt: 41883, ws: 41885, http: 41081, udp: 41884, link: 41086 })).toEqual({
      MQTT_PORT: '41883',
      MQTT_WS_PORT: '41885',
      HTTP_PORT: '41081',
      UDP_PORT: '41884',
      LINK_PORT: '41086',
    });
  });

  it('refuses a port kind it has no variable for, rather than move it on restart', () => {
    expect(() => pinnedPorts({ http: 1, gopher: 70 })).toThrow(/"gopher" port/);
  });
});
