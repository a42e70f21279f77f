// @fleet/protocol: pure wire code (DESIGN §2). No I/O; node:crypto only for HMAC, AES and SHA-256.

export { ok, err, assertNever, type Result, type ProtocolError } from './result';

// cJSON-compatible JSON: what the firmware sees (case-insensitive first-wins lookups, saturating ints, its printer)
export {
  cjson,
  saturatingInt,
  cString,
  INT32_MAX,
  INT32_MIN,
  type CJsonValue,
  type CJsonKind,
  type CJsonObject,
  type CJsonMember,
} from './json/cjson-value';
export { parseCJson, type CJsonParseError } from './json/cjson-parse';
export { printCJson, escapeCJsonString } from './json/cjson-print';
export { getItemCaseInsensitive, membersMatching, asciiLower } from './json/cjson-lookup';
export { toCJson, fromCJson } from './json/cjson-convert';
export { utf8ByteLength } from './json/utf8';
export {
  hasUnstorableText,
  isStorableText,
  withoutUnstorableText,
  withStorableText,
} from './json/storable-text';

// MCP tools and the firmware's MCP server as pure functions
export * from './mcp/tool-definition';
export * from './mcp/firmware-tools';
export { FIRMWARE_ERRORS } from './mcp/firmware/errors';
export { firmwareToolJson } from './mcp/firmware/tool-json';
export {
  firmwareToolsListPage,
  TOOLS_LIST_PAYLOAD_LIMIT,
  type FirmwareToolsListOutcome,
} from './mcp/firmware/tools-list';
export { readFirmwareRequest, type FirmwareRequest, type FirmwareDropReason } from './mcp/firmware/request';
export {
  bindFirmwareArguments,
  type ArgumentBinding,
  type BoundArguments,
} from './mcp/firmware/bind-arguments';
export { argumentNoteSchema, type ArgumentNote } from './mcp/firmware/argument-note';
export { prepareFirmwareToolCall, type FirmwareToolCall } from './mcp/firmware/tool-call';
export * from './mcp/firmware/replies';
export {
  repairFirmwarePayload,
  literalFirmwarePayload,
  REPAIR_KINDS,
  type RepairKind,
  type PayloadRepair,
} from './mcp/firmware/reply-repair';
export * from './mcp/firmware/server-core';

// xiaozhi envelope, both directions
export * from './xiaozhi/common-schemas';
export * from './xiaozhi/device-messages';
export * from './xiaozhi/server-messages';
export { encodeServerMessage } from './xiaozhi/encode-server-message';
export {
  serverMessage,
  DEFAULT_DOWNLINK_AUDIO,
  type ServerHelloInput,
} from './xiaozhi/server-message-builders';
export { deviceMessage, DEVICE_UPLINK_AUDIO, type DeviceHelloInput } from './xiaozhi/device-message-builders';
export {
  acceptServerHello,
  type AcceptedServerHello,
  type ServerHelloRejection,
} from './xiaozhi/server-hello-acceptance';
export {
  readServerMessageAsDevice,
  goodbyeApplies,
  type DeviceSideServerMessage,
  type DeviceSideRejection,
} from './xiaozhi/read-server-message';
export {
  parseDeviceMessage,
  DEFAULT_MAX_DEVICE_MESSAGE_BYTES,
  type ParsedDeviceMessage,
  type DeviceMessageError,
  type DeviceMessageErrorKind,
} from './xiaozhi/parse-device-message';

// ListenAI envelope and link
export * from './listenai/envelope';
export * from './listenai/link-request';
export * from './listenai/link-close';
export * from './listenai/request-ids';

// The dialect-neutral model the orchestrator speaks
export * from './dialect/model';
export { encodeMcpRequest, encodeMcpReply, type McpEncodeError } from './dialect/encode';
export {
  decodeMcpReply,
  decodeMcpRequest,
  type McpDecodeError,
  type McpDecodeErrorKind,
} from './dialect/decode';
export * from './dialect/tool-call-outcome';
export * from './dialect/tools-list-page';
export * from './dialect/initialize-info';
export { firmwareDefinitionOf } from './dialect/firmware-definition';

// Identities, topics, credentials
export * from './mac';
export * from './topics';
export * from './credentials/client-id';
export * from './credentials/username';
export * from './credentials/password';
export * from './credentials/client-id-secret';
export * from './credentials/efuse-key-seal';

// UDP audio
export * from './udp/header';
export * from './udp/packet-checks';
export * from './udp/aes-ctr';
export { buildSessionNonce, deviceUplinkHeader, fromHex16, toHex } from './udp/nonce';

// OTA / activation HTTP
export type { OtaComplaint } from './ota/complaint';
export { otaRequestHeadersSchema, readOtaHeaders, type OtaHeaders, type HeaderBag } from './ota/headers';
export { systemInfoSchema, parseCompileTime, type SystemInfo } from './ota/system-info';
export { readOtaCheckIn, type OtaCheckIn } from './ota/check-in';
export * from './ota/response';
export * from './ota/activation';

export * from './firmware-version';
export { regressesFrom, mayRevealRegression } from './upgrade-regression';

// ESP-IDF application images: verified as the bootloader verifies them, and built for tests and the simulator
export * from './esp-image';
export * from './uplink-wrapper';
export * from './credentials/system-info-redaction';
