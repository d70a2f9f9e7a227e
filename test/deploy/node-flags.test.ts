import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const NODE_FLAGS = JSON.parse(readFileSync(path.join(ROOT, 'scripts/node-flags.json'), 'utf8')) as Record<string, string[]>;

/** The image's own CMD: the last one at the start of a line (a HEALTHCHECK's CMD is indented). */
function imageCommand(service: string): string[] {
  const dockerfile = readFileSync(path.join(ROOT, 'services', service, 'Dockerfile'), 'utf8');
  const commands = dockerfile.split('\n').filter((line) => line.startsWith('CMD '));
  return JSON.parse(commands[commands.length - 1]!.slice('CMD '.length)) as string[];
}

// `npm start` and the benchmark read scripts/node-flags.json; an image cannot, so its CMD is held to it here.
describe('each image runs its service with the V8 flags npm start and the benchmark give it', () => {
  it.each(Object.keys(NODE_FLAGS))('%s', (service) => {
    expect(imageCommand(service)).toEqual([
      'node',
      ...NODE_FLAGS[service]!,
      '--enable-source-maps',
      '--require',
      './dist/instrumentation.js',
      'dist/main.js',
    ]);
  });

  it('names every service that has an image', () => {
    const withImage = readdirSync(path.join(ROOT, 'services')).filter((name) => existsSync(path.join(ROOT, 'services', name, 'Dockerfile')));
    expect(Object.keys(NODE_FLAGS).sort()).toEqual(withImage);
  });
});
