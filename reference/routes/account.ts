/** GET /account (spec § Account). */
import type { AreaModule } from '../app.js';

export const account: AreaModule = {
  name: 'account',
  faults: [
    { name: 'account-settings-string', rules: ['ACCOUNT-2'], description: 'settings booleans are returned as "true"/"false" strings' },
    { name: 'account-timezone-offset', rules: ['ACCOUNT-3'], description: 'primary_timezone is an offset like "+01:00" instead of a zone name' },
    { name: 'json-content-type-missing', rules: ['WIRE-1'], description: 'JSON answers are sent as text/plain' },
  ],
  api(router, app) {
    router.add('GET', '/account', () => {
      const body: Record<string, unknown> = {
        id: 10,
        name: 'Reference Account',
        primary_timezone: app.fault('account-timezone-offset') ? '+01:00' : 'Europe/Berlin',
        settings: app.fault('account-settings-string')
          ? { setting_team_permissions_enabled: 'false', setting_enable_leads: 'true' }
          : { setting_team_permissions_enabled: false, setting_enable_leads: true },
      };
      if (app.variant) (body.settings as Record<string, unknown>).setting_other_key = 'x';
      if (app.fault('json-content-type-missing')) return { status: 200, raw: JSON.stringify(body), headers: { 'content-type': 'text/plain' } };
      return body;
    });
  },
};
