import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from '@fleet/telemetry';
import type { ActivationService } from '../activation/activation-service';
import type { BrokerMetrics } from '../broker-metrics';
import type { FirmwareImages } from './firmware-images';
import type { OtaCheckInService } from './ota-check-in';

export interface DeviceHttpDeps {
  checkIns: OtaCheckInService;
  activation: ActivationService;
  firmware: FirmwareImages;
  metrics: BrokerMetrics;
  logger: Logger;
}

/**
 * The HTTP a stock device uses (xiaozhi §4): the OTA check-in and activation, with or without the trailing
 * slash, and firmware downloads with a real Content-Length (the firmware refuses chunked transfers; devices
 * have no credentials to present, so images are addressed by their sha256).
 */
export function registerDeviceHttp(app: FastifyInstance, deps: DeviceHttpDeps): void {
  void app.register((scope, _opts, done) => {
    // Bodies are read as bytes whatever their Content-Type: a body the JSON parser rejects must still get a 200.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, next) =>
      next(null, body),
    );

    const checkIn = async (request: FastifyRequest) => {
      const socket = request.raw.socket;
      const result = await deps.checkIns.handle(
        request.headers,
        bodyOf(request),
        request.ip,
        () => socket.destroyed,
      );
      if (result.status === 400) {
        deps.metrics.otaCheckIns.inc({ outcome: 'bad_request' });
        deps.logger.info({ remote: request.ip, error: result.error }, 'OTA check-in refused');
        return { status: 400, body: { error: result.error } };
      }
      if (result.status === 'abandoned') {
        // Counted: a rising count means check-ins wait longer than the firmware's HTTP timeout.
        deps.metrics.otaCheckIns.inc({ outcome: 'abandoned' });
        return { status: 200, body: {} }; // nobody reads it
      }
      deps.metrics.otaCheckIns.inc({ outcome: result.outcome });
      const unstorable = result.checkIn.unstorable.length;
      if (unstorable > 0) deps.metrics.malformedInput.inc({ kind: 'ota_unstorable_text' }, unstorable);
      const complaints = result.checkIn.complaints;
      deps.logger[complaints.length ? 'warn' : 'debug'](
        { mac: result.deviceId, outcome: result.outcome, complaints, remote: request.ip },
        'OTA check-in',
      );
      return { status: 200, body: result.body };
    };
    // The firmware posts to its OTA URL as configured, and to `<ota_url>[/]activate`.
    for (const url of ['/xiaozhi/ota', '/xiaozhi/ota/']) {
      scope.post(url, async (request, reply) => {
        const { status, body } = await checkIn(request);
        return reply.code(status).type('application/json').send(body);
      });
    }
    for (const url of ['/xiaozhi/ota/activate', '/xiaozhi/ota/activate/']) {
      scope.post(url, async (request, reply) => {
        const result = await deps.activation.handle(request.headers, bodyOf(request));
        if (result.status === 400) {
          deps.metrics.activations.inc({ outcome: 'bad_request' });
          return reply.code(400).type('application/json').send({ error: result.error });
        }
        deps.metrics.activations.inc({ outcome: result.outcome });
        if (result.status === 202 && result.outcome !== 'pending' && result.outcome !== 'unproven') {
          deps.logger.warn(
            { mac: result.mac, outcome: result.outcome, remote: request.ip },
            'activation refused',
          );
        }
        // The same body whatever the reason: the answer must not tell a stranger which MACs exist (DESIGN §3).
        return reply
          .code(result.status)
          .type('application/json')
          .send({ status: result.status === 200 ? 'activated' : 'pending' });
      });
    }
    scope.get<{ Params: { sha256: string } }>('/firmware/:sha256', async (request, reply) => {
      const sha256 = /^([0-9a-f]{64})\.bin$/.exec(request.params.sha256)?.[1];
      const image = sha256 ? await deps.firmware.get(sha256) : undefined;
      if (!image) {
        deps.metrics.firmwareDownloads.inc({ outcome: 'not_found' });
        return reply.code(404).send({ error: 'no such firmware image' });
      }
      deps.metrics.firmwareDownloads.inc({ outcome: 'served' });
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(image.length))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(image);
    });
    done();
  });
}

function bodyOf(request: FastifyRequest): Buffer | undefined {
  return Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : undefined;
}
