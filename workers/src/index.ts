export * from './reactor.js';
export * from './queues.js';
export * from './start-workers.js';
