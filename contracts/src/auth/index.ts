export * from './roles.js';
export * from './permissions.js';
export * from './session-user.js';
export * from './access.js';
export * from './route-access.js';
export * from './session-end.js';
export * from './login.js';
export * from './password.js';
