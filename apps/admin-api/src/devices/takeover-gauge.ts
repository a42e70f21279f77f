import { Inject, Injectable } from '@nestjs/common';
import { TAKEOVERS_AN_HOUR_OF_CONCERN } from '@fleet/api-contract';
import { Gauge, type Logger, type Registry } from '@fleet/telemetry';
import { LOGGER, METRICS_REGISTRY } from '../infra/tokens';
import { TakeoversRepository } from './takeovers.repository';

/**
 * `admin_api_devices_taken_over_often`: devices taken over more than TAKEOVERS_AN_HOUR_OF_CONCERN times in the
 * last hour, read from the connection rows at each scrape. The broker's takeover counter has no device label
 * (a label per device would make a series per device); the rows know the device, so the count comes from them.
 */
@Injectable()
export class TakeoverGauge {
  constructor(
    takeovers: TakeoversRepository,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(LOGGER) logger: Logger,
  ) {
    new Gauge({
      name: 'admin_api_devices_taken_over_often',
      help: `Devices taken over more than ${TAKEOVERS_AN_HOUR_OF_CONCERN} times in the last hour (a cloned Client-Id, an impostor)`,
      registers: [registry],
      async collect() {
        try {
          this.set(await takeovers.devicesTakenOverMoreThan(TAKEOVERS_AN_HOUR_OF_CONCERN));
        } catch (err) {
          // Postgres unreachable: the last value stands; fleet_dependency_up says why.
          logger.warn({ err }, 'could not count the devices taken over often');
        }
      },
    });
  }
}
