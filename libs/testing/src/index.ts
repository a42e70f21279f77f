export { createTestDatabase, type TestDatabase } from './test-database';
export { startTestRedis, type TestRedis } from './test-redis';
export { freePort } from './free-port';
export { waitFor } from './wait-for';
export {
  databaseUrl,
  TEST_POSTGRES_URL,
  templateDatabase,
  templateDatabaseName,
  APP_ROLE,
} from './postgres-urls';
export { startTcpProxy, type TcpProxy } from './tcp-proxy';
export { getJson } from './http';
export { startTestMqttBroker, type TestMqttBroker, type TestMqttBrokerOptions } from './test-mqtt-broker';
export { startServiceProcess, type ServiceProcess } from './service-process';
export { registerListenAiDevice, type RegisteredListenAiDevice } from './listenai-devices';
export { spokenPcm, withSilence, toneWav } from './speech';
export { countStatements, type StatementCounter } from './statement-counter';
export { parsePrometheusText, scrape, scrapeMetrics, type Sample } from './metrics-scrape';
export { withMarkedSection } from './marked-section';
export { approvalOf, passPreflight } from './preflight-approvals.repository';
export { committedExport, TEST_LOG_ORIGIN } from './committed-export';
