export { connectServiceMqtt, mqttHealthCheck, closeMqtt, type ServiceMqttOptions } from './service-mqtt';
