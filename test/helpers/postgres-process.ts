import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { once } from 'node:events';

const ROOT = path.resolve(__dirname, '../..');

/** A PostgreSQL server the test can stop and start again (same data directory, same port). */
export class PostgresProcess {
  private child?: ChildProcess;

  constructor(
    readonly dataDir: string,
    readonly port: number,
  ) {}

  url(database: string): string {
    return `postgres://postgres:postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    // node itself with tsx as its loader: the `tsx` binary runs the script in a grandchild, which it kills outright
    // when it relays SIGTERM and the grandchild is slow to confirm (under load), leaving PostgreSQL running.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'test/support/postgres-process.ts'), this.dataDir, String(this.port)],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`postgres process exited with ${code}`)));
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    this.child = undefined;
  }
}
