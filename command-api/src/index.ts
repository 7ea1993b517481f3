export * from './app.js';
export * from './app-deps.js';
export * from './start-api.js';
export * from './auth/tokens.js';
export * from './live/live-hub.js';
export * from './redis-probe.js';
export { createRateLimitRedis, type RateLimitBackend } from './http/rate-limits.js';
export * from './seed/demo-seed.js';
export * from './seed/demo-steps.js';
