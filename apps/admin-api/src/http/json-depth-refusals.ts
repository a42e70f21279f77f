// The name `/mcp`'s endpoint knows the request-level refusals by: they began as the depth limit alone.
export { InputRefusals as JsonDepthRefusals } from './input-refusals';
