export * from './lease.js';
export * from './leased-consumer.js';
