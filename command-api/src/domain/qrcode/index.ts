export * from './qr-code.js';
export * from './decide.js';
