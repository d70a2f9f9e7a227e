import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from '@mailer/shared/testing';
import path from 'node:path';


export interface ChildService {
  url: string;
  stop(): Promise<void>;
}

/**
 * Runs another service from its build output as a child process (services never import each
 * other), and resolves once its /readyz answers 200.
 */
export async function startChildService(root: string, name: string, env: NodeJS.ProcessEnv): Promise<ChildService> {
  const main = path.join(root, 'services', name, 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`${name} is not built (${main}); run npm run build`);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: path.join(root, 'services', name),
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`).then((response) => response.ok, () => false);
    if (ready) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not become ready in 30 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
