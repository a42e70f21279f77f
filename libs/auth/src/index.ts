export { generateApiKey, parseApiKey, verifyApiKeySecret, type NewApiKey } from './api-key';
export { hashPassword, verifyPassword } from './password';
export { ROLES, roleAllows, type Role } from './roles';
export { generateLinkToken, parseLinkToken, verifyLinkTokenSecret, type NewLinkToken } from './link-token';
export { PrincipalCache, type PrincipalCacheOptions } from './principal-cache';
