import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

// Each service has a Dockerfile of its own (each deploys alone), all made from one template.
describe('the services Dockerfiles', () => {
  it('are each exactly what scripts/dockerfiles.mjs makes from its one template', () => {
    expect(() =>
      execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'dockerfiles.mjs'), '--check'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' }),
    ).not.toThrow();
  });
});
