/**
 * A Playwright worker started before it is needed (scripts/prefork.cjs): loads Playwright, then
 * waits. When the runner hands it a worker's place it takes that worker's environment (the
 * whole of it: the same `process.env` a fork would have had) and runs Playwright's worker entry,
 * which tells the runner it is ready as a forked worker does. Started with the runner's
 * NODE_OPTIONS, so the code cache (scripts/compile-cache.cjs) is in place before anything loads.
 * It ends with the runner when never handed over.
 */
'use strict';
const quit = () => process.exit(0);
process.on('disconnect', quit);

try {
  require('@playwright/test');
} catch {
  // Loaded by the worker entry instead, which reports what is wrong.
}

process.once('message', (message) => {
  const handover = message && message.crmZygote;
  if (!handover) return quit();
  process.removeListener('disconnect', quit);
  for (const key of Object.keys(process.env)) if (!(key in handover.env)) delete process.env[key];
  Object.assign(process.env, handover.env);
  process.argv[1] = handover.entry;
  // When it stops, a worker tells the runner which variables it changed, against the environment
  // Playwright's code saw when it loaded: here the zygote's, so the difference is taken again
  // against the one handed over (the runner passes it to projects that depend on this one).
  const send = process.send.bind(process);
  process.send = (msg, ...rest) => {
    if (msg && msg.method === '__env_produced__') {
      const keys = new Set([...Object.keys(process.env), ...Object.keys(handover.env)]);
      msg = { ...msg, params: [...keys].filter((k) => handover.env[k] !== process.env[k]).map((k) => [k, process.env[k] ?? null]) };
    }
    return send(msg, ...rest);
  };
  require(handover.entry);
});
