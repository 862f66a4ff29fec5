/**
 * Runs the conformance suite against the configured target, or, with no CRM_BASE_URL, against
 * the embedded reference server. Everything is decided by the settings (specs/support/suite-config.ts).
 */
import { defineConfig } from '@playwright/test';
import { suiteConfig } from './specs/support/suite-config.js';

export default defineConfig(suiteConfig());
