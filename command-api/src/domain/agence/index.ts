export * from './agence.js';
export * from './decide.js';
