/** Every contract of the suite, by name. */
export * from './base.js';
export * from './resources.js';
export * from './requests.js';
export * from './errors.js';
export * from './profile.js';
