import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SERVICES_DIR = path.join(ROOT, 'services');
const services = readdirSync(SERVICES_DIR).filter((name) => statSync(path.join(SERVICES_DIR, name)).isDirectory());

/** Every TypeScript file of a service, its tests included (build output and dependencies left out). */
function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesOf(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The module specifiers a file imports, re-exports, requires or imports dynamically. */
function specifiersOf(text: string): string[] {
  const pattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/** The service whose code a specifier reaches from `file`, when it is another one than `own`. */
function foreignServiceOf(own: string, file: string, specifier: string): string | undefined {
  const named = /^@mailer\/([^/]+)/.exec(specifier)?.[1];
  if (named !== undefined) return services.includes(named) && named !== own ? named : undefined;
  if (!specifier.startsWith('.')) return undefined;
  const target = path.relative(SERVICES_DIR, path.resolve(path.dirname(file), specifier));
  if (target.startsWith('..')) return undefined;
  const [service] = target.split(path.sep);
  return service !== own ? service : undefined;
}

describe('each service deploys alone: no service reaches another service code', () => {
  it.each(services)('%s imports no other service (sources and tests)', (service) => {
    const crossings = sourcesOf(path.join(SERVICES_DIR, service)).flatMap((file) =>
      specifiersOf(readFileSync(file, 'utf8')).flatMap((specifier) => {
        const other = foreignServiceOf(service, file, specifier);
        return other === undefined ? [] : [`${path.relative(ROOT, file)} imports ${specifier} (${other})`];
      }),
    );
    expect(crossings).toEqual([]);
  });

  it.each(services)('%s depends on no other service package and references no other service build', (service) => {
    const manifest = JSON.parse(readFileSync(path.join(SERVICES_DIR, service, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    expect(dependencies.filter((name) => services.some((other) => name === `@mailer/${other}`))).toEqual([]);
    const tsconfig = readFileSync(path.join(SERVICES_DIR, service, 'tsconfig.json'), 'utf8');
    const references = [...tsconfig.matchAll(/"path":\s*"([^"]+)"/g)].map((match) => path.resolve(SERVICES_DIR, service, match[1]!));
    expect(references.filter((reference) => path.dirname(reference) === SERVICES_DIR)).toEqual([]);
  });

  it.each([...services.map((service) => `services/${service}`), 'packages/shared'])('%s: no runtime source or dependency is the test kit', (workspace) => {
    const runtime = sourcesOf(path.join(ROOT, workspace, 'src')).filter((file) =>
      specifiersOf(readFileSync(file, 'utf8')).some((specifier) => /^@mailer\/testing(\/|$)/.test(specifier)),
    );
    expect(runtime.map((file) => path.relative(ROOT, file))).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(ROOT, workspace, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {})).not.toContain('@mailer/testing');
  });

  it('finds a crossing when there is one', () => {
    const file = path.join(SERVICES_DIR, 'web', 'test', 'example.test.ts');
    expect(foreignServiceOf('web', file, '../../automation/src/domain/rendering/render-email')).toBe('automation');
    expect(foreignServiceOf('web', file, '@mailer/automation/event-enrolments')).toBe('automation');
    expect(foreignServiceOf('web', file, '../src/web-service')).toBeUndefined();
    expect(foreignServiceOf('web', file, '@mailer/shared')).toBeUndefined();
    expect(specifiersOf("import { a } from '../x';\nexport * from \"./y\";\nconst z = require('../../z');")).toEqual(['../x', './y', '../../z']);
  });
});
