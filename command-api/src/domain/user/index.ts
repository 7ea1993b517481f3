export * from './user.js';
export * from './decide.js';
