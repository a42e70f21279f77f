import { LeanMqttClient, type LeanMqttHandlers } from '../mqtt/lean-client';
import type { DeviceHost } from './device-host';
import { handleIncoming } from './incoming';
import { nvsInt, nvsString } from './nvs';
import type { Runtime } from './runtime';

const DEFAULT_PORT = 8883;

/**
 * The firmware's MqttProtocol: the client built from NVS `mqtt` (xiaozhi §1.2), publishing only to
 * publish_topic, subscribing to nothing, handing every PUBLISH to the app whatever its topic. esp-mqtt
 * reconnects by itself; a disconnect also starts the one-shot timer that re-creates the client if the
 * device is idle when it fires.
 */
export class DeviceMqtt implements LeanMqttHandlers {
  private client: LeanMqttClient | undefined;
  private publishTopic = '';
  private reconnectTimer: (() => void) | undefined;
  private flapTimer: (() => void) | undefined;

  constructor(
    private readonly host: DeviceHost,
    private readonly rt: Runtime,
  ) {}

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** StartMqttClient: false when NVS has no endpoint (or one the simulator cannot reach). */
  start(): boolean {
    this.client?.destroy();
    this.client = undefined;
    const nvs = this.host.nvs.mqtt;
    const endpoint = nvsString(nvs, 'endpoint');
    this.publishTopic = nvsString(nvs, 'publish_topic');
    if (endpoint === '') {
      this.host.events.emit('warning', 'MQTT endpoint is not specified');
      return false;
    }
    const colon = endpoint.indexOf(':');
    const host = colon === -1 ? endpoint : endpoint.slice(0, colon);
    // std::stoi: leading digits; none at all throws, and nothing catches it.
    const port = colon === -1 ? DEFAULT_PORT : parseInt(endpoint.slice(colon + 1), 10);
    if (Number.isNaN(port)) {
      this.host.restart('crash', `std::stoi on the endpoint port: ${endpoint}`);
      return false;
    }
    if (port === DEFAULT_PORT) {
      // xiaozhi §1.2: 8883 means TLS checked against the ESP CA bundle, which a simulator cannot pass.
      this.host.events.emit(
        'warning',
        `endpoint ${endpoint} means TLS; the simulator speaks plain MQTT only`,
      );
      return false;
    }
    const t = this.host.config.timings;
    this.client = new LeanMqttClient(
      {
        host,
        port,
        clientId: nvsString(nvs, 'client_id'),
        username: nvsString(nvs, 'username'),
        password: nvsString(nvs, 'password'),
        // An int32 in NVS; MQTT carries 16 bits.
        keepaliveSec: Math.min(
          0xffff,
          Math.max(0, nvsInt(nvs, 'keepalive', this.host.config.defaultKeepaliveSec)),
        ),
        connectTimeoutMs: t.mqttConnectTimeoutMs,
        reconnect: {
          initialMs: t.mqttReconnectMs,
          maxMs: t.mqttReconnectMs,
          factor: 1,
          jitter: this.host.config.reconnectJitter,
        },
        clock: this.host.clock,
      },
      this,
    );
    this.client.start();
    return true;
  }

  /** SendText: nothing is sent without a publish_topic or a connection. */
  sendText(text: string): boolean {
    return this.publish(this.publishTopic, text);
  }

  publish(topic: string, payload: string | Uint8Array): boolean {
    if (topic === '' || !this.client?.publish(topic, payload)) return false;
    const text = typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8');
    const message = { topic, text, at: this.host.clock.now() };
    this.host.observed.published.push(message);
    this.host.events.emit('published', message);
    return true;
  }

  writeRaw(bytes: Uint8Array): boolean {
    return this.client?.writeRaw(bytes) ?? false;
  }

  /** A network loss: no DISCONNECT; esp-mqtt reconnects on its own, no reboot, no OTA check-in. */
  flap(): void {
    if (!this.client?.connected) return;
    this.host.stats.flaps++;
    this.client.drop('flap');
  }

  /** The flap knob, re-read whenever the connection comes up or the knob changes. */
  armFlap(): void {
    this.flapTimer?.();
    this.flapTimer = undefined;
    const every = this.host.faults.current.flapEveryMs;
    if (every <= 0 || !this.connected) return;
    this.flapTimer = this.rt.after(every * (0.5 + Math.random()), () => this.flap());
  }

  /** protocol_.reset(): esp-mqtt stops, which sends DISCONNECT. */
  async close(): Promise<void> {
    this.cancelTimers();
    const client = this.client;
    this.client = undefined;
    await client?.stop();
  }

  /** Power loss: the socket just dies. */
  destroy(): void {
    this.cancelTimers();
    this.client?.destroy();
    this.client = undefined;
  }

  onConnected(): void {
    this.host.stats.mqttConnectCount++;
    this.reconnectTimer?.();
    this.reconnectTimer = undefined;
    this.host.events.emit('connected');
    this.armFlap();
  }

  onDisconnected(wasConnected: boolean, reason: string): void {
    if (wasConnected) {
      this.host.stats.mqttDisconnectCount++;
      this.host.events.emit('disconnected', reason);
      // xiaozhi §5: a session open when the network drops is closed; its goodbye cannot be sent.
      if (this.rt.hasChannel && this.rt.channel.hasUdp) {
        this.rt.mainTask.schedule(() => this.rt.channel.close(true));
      }
    }
    // esp_timer_start_once on a running timer does nothing: the first disconnect's deadline stands.
    this.reconnectTimer ??= this.rt.after(this.host.config.timings.appReconnectMs, () => {
      this.reconnectTimer = undefined;
      if (this.rt.state !== 'idle') return;
      this.rt.mainTask.schedule(() => {
        this.start();
      });
    });
  }

  onConnackRefused(returnCode: number): void {
    this.host.events.emit('warning', `CONNACK refused with return code ${returnCode}`);
  }

  onMessage(topic: string, payload: Buffer): void {
    handleIncoming(this.host, this.rt, topic, payload);
  }

  private cancelTimers(): void {
    this.reconnectTimer?.();
    this.reconnectTimer = undefined;
    this.flapTimer?.();
    this.flapTimer = undefined;
  }
}
