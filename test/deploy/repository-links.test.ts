import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// A clone must be complete on its own: no file may point at something outside the repository
// (a sibling folder that only exists on one machine), and no document may link to a file the
// repository does not hold.
const ROOT = path.resolve(__dirname, '../..');

/** Tracked files plus new ones not ignored, so a link is caught before it is committed. */
function projectFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return listed
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(ROOT, file)) && statSync(path.join(ROOT, file)).isFile())
    .sort();
}

function textOf(file: string): string | undefined {
  const bytes = readFileSync(path.join(ROOT, file));
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

const insideRoot = (absolute: string) => absolute === ROOT || absolute.startsWith(`${ROOT}${path.sep}`);

/** `../x` in any file resolves from that file's folder; it must stay inside the repository. */
function escapingPaths(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?<![\w./-])((?:\.\.\/)+[\w@.-]+)/g)) {
    const target = path.resolve(ROOT, path.dirname(file), match[1]!);
    if (!insideRoot(target)) found.push(`${file}: ${match[1]} leaves the repository`);
  }
  return found;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchorsOf = (markdown: string) => new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

/**
 * Markdown links `[text](target)` and `<a href>`: every local target must exist inside the
 * repository, and an `#anchor` into a Markdown file must name one of its headings.
 */
function brokenMarkdownLinks(file: string, text: string, read: (absolute: string) => string = (a) => readFileSync(a, 'utf8')): string[] {
  const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
  return targets
    .filter((target) => !EXTERNAL.test(target))
    .flatMap((target) => {
      const [rawPath = '', anchor] = target.split('#');
      const local = decodeURI(rawPath);
      const absolute =
        local === '' ? path.join(ROOT, file) : local.startsWith('/') ? path.join(ROOT, local) : path.resolve(ROOT, path.dirname(file), local);
      if (!insideRoot(absolute) || !existsSync(absolute)) return [`${file}: link to ${target}, which is not in the repository`];
      if (anchor && absolute.endsWith('.md') && !anchorsOf(local === '' ? text : read(absolute)).has(anchor)) {
        return [`${file}: link to ${target}, a heading that document does not have`];
      }
      return [];
    });
}

/**
 * A document named bare (`as THAT.md says`, no folder) that the repository does not hold anywhere
 * is a reference to a document outside it. Names with a folder (`docs/x.md`) are paths, checked above.
 */
function unknownDocuments(file: string, text: string, known: Set<string>): string[] {
  return [...text.matchAll(/(?<![\w./-])([A-Za-z][\w-]*\.md)\b/g)]
    .map((match) => match[1]!)
    .filter((name) => !known.has(name.toLowerCase()))
    .map((name) => `${file}: names ${name}, which the repository does not hold`);
}

describe('links and references stay inside the repository', () => {
  const files = projectFiles();
  const texts = files.flatMap((file) => {
    const text = textOf(file);
    return text === undefined ? [] : [{ file, text }];
  });
  const knownDocuments = new Set(files.filter((file) => file.endsWith('.md')).map((file) => path.basename(file).toLowerCase()));

  it('sees the project (sanity: the walk found its documents)', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/workflows.md', 'examples/README.md']));
  });

  it('no file has a relative path that climbs out of the repository', () => {
    expect(texts.flatMap(({ file, text }) => escapingPaths(file, text))).toEqual([]);
  });

  it('every local link in a Markdown document points at a file the repository holds', () => {
    const markdown = texts.filter(({ file }) => file.endsWith('.md'));
    expect(markdown.flatMap(({ file, text }) => brokenMarkdownLinks(file, text))).toEqual([]);
  });

  it('no file names a Markdown document the repository does not hold', () => {
    // This file names made-up documents on purpose (the last test); the lock file names packages' files.
    const self = path.relative(ROOT, __filename);
    const checked = texts.filter(({ file }) => file !== 'package-lock.json' && file !== self);
    expect(checked.flatMap(({ file, text }) => unknownDocuments(file, text, knownDocuments))).toEqual([]);
  });

  it('the checks catch what they are for', () => {
    expect(escapingPaths('README.md', 'see ../sibling/spec.md')).toHaveLength(1);
    expect(escapingPaths('packages/x/src/a.ts', "import '../common/y'")).toEqual([]);
    expect(brokenMarkdownLinks('docs/a.md', '[spec](../../outside.md) [ok](api.md) [web](https://example.org)')).toEqual([
      'docs/a.md: link to ../../outside.md, which is not in the repository',
    ]);
    const headings = () => '# Title\n## Who receives it, and only once\n';
    expect(brokenMarkdownLinks('docs/a.md', '[a](workflows.md#who-receives-it-and-only-once) [b](workflows.md#nowhere)', headings)).toEqual([
      'docs/a.md: link to workflows.md#nowhere, a heading that document does not have',
    ]);
    expect(unknownDocuments('a.ts', '// as NOWHERE.md says; see docs/decisions.md or docs/later.md', new Set(['decisions.md']))).toEqual([
      'a.ts: names NOWHERE.md, which the repository does not hold',
    ]);
  });
});
