export * from './client.js';
export * from './decide.js';
