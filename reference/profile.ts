/**
 * The reference server's own target profile (reference/profile.json): the fixtures the server
 * seeds (users, custom field definitions, the company with activities, the attached file,
 * project statuses, contact types, fixture opportunities) are read from it, so the suite and
 * the server cannot disagree. A JSON import: the esbuild bundle of the server inlines it.
 */
import profile from './profile.json';

export const PROFILE = profile;
export const FIXTURES = profile.fixtures;
