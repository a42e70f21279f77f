import type { MqttClient } from 'mqtt';
import { deviceP2pTopic, encodeServerMessage, type Mac, type ServerMessage } from '@fleet/protocol';

/**
 * The voice worker's messages to a device (DESIGN §3: tts, stt, llm and alert only; the broker closes the
 * connection of a service that sends anything else). Resolves once the message left on the broker connection,
 * which is what must happen before audio: the device plays frames only while `speaking` (xiaozhi §1.6).
 */
export class DeviceMessages {
  constructor(private readonly mqtt: MqttClient) {}

  send(mac: Mac, message: ServerMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      this.mqtt.publish(deviceP2pTopic(mac), encodeServerMessage(message), { qos: 0 }, (err) =>
        err ? reject(err) : resolve(),
      );
    });
  }
}
