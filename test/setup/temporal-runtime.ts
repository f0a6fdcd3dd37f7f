import { DefaultLogger, Runtime } from '@temporalio/worker';

// In-process workers (time-skipping tests) log every state change at INFO, and the SDK core warns about the
// test server's missing capabilities on every worker start: thousands of lines that bury a failing test's
// message in CI output (retry tests fail activities on purpose, each a warning). Errors are still shown.
Runtime.install({
  logger: new DefaultLogger('ERROR'),
  telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, console: {} } },
});
