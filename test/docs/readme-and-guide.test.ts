import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadProfileFile, PROFILE_SCHEMA_FILE } from '../../lib/profile/load-profile.ts';
import { ROOT } from '../support/cli.ts';

/** The README is the first ten minutes; the user guide under docs/guide/ holds the rest. */

const README = join(ROOT, 'README.md');
const GUIDE = join(ROOT, 'docs', 'guide');
const pages = [README, ...readdirSync(GUIDE).filter((n) => n.endsWith('.md')).map((n) => join(GUIDE, n))];
/** Pages that link into the guide: their links are held to the same rule. */
const linking = [join(ROOT, 'docs', 'ci', 'github-actions.md'), join(ROOT, 'docs', 'ci', 'matrix.md')];
const readme = readFileSync(README, 'utf8');

/** Markdown without fenced blocks and code spans, where a `](...)` or a `#` is no link or heading. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = readFileSync(file, 'utf8').replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Every relative link of a page: its text as written, and the file and anchor it names. */
function relativeLinks(file: string): Array<{ link: string; target: string; anchor: string | undefined }> {
  const links = [...prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return links
    .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l))
    .map((link) => {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      return { link, target: path === '' ? file : resolve(dirname(file), decodeURIComponent(path)), anchor };
    });
}

describe('README.md and docs/guide/*.md', () => {
  test.each([...pages, ...linking].map((p) => [relative(ROOT, p), p]))('every relative link in %s names a file that exists, and a heading it has', (_name, page) => {
    const broken: string[] = [];
    for (const { link, target, anchor } of relativeLinks(page)) {
      if (!existsSync(target)) broken.push(`${link}: no such file`);
      else if (anchor !== undefined && statSync(target).isFile() && target.endsWith('.md') && !anchorsOf(target).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  test('the README links every page of the guide', () => {
    const linked = new Set(relativeLinks(README).map((l) => l.target));
    for (const page of pages.slice(1)) expect(linked.has(page), relative(ROOT, page)).toBe(true);
  });

  test('the README stays short: at most 320 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(320);
  });

  test('its two commands are what CI runs on a fresh clone: npm ci, npm start, npm test', () => {
    const section = readme.slice(readme.indexOf('## The two commands'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const commands = block.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter((l) => l !== '');
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8').split('\n').filter((l) => /^npm /.test(l));
    expect(commands).toEqual(['npm ci', 'npm start', 'npm test']);
    expect(ci).toEqual(commands);
  });

  test('its profile is one the harness loads, with every token from the environment', () => {
    const section = readme.slice(readme.indexOf('## Pointing it at your server'));
    const block = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const dir = mkdtempSync(join(tmpdir(), 'asi-readme-profile-'));
    try {
      writeFileSync(join(dir, 'my-target.yaml'), block);
      const profile = loadProfileFile(join(dir, 'my-target.yaml'));
      expect(Object.values(profile.tokens).every((t) => t !== undefined && 'env' in t)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the profile reference names every key of the profile schema', () => {
    const schema = JSON.parse(readFileSync(PROFILE_SCHEMA_FILE, 'utf8')) as SchemaNode & { $defs?: Record<string, SchemaNode> };
    const keys: string[] = [];
    const walk = (node: SchemaNode | undefined, prefix: string): void => {
      if (node === undefined) return;
      const ref = node.$ref?.split('/').pop();
      if (ref !== undefined) walk(schema.$defs?.[ref], prefix);
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        keys.push(`${prefix}${key}`);
        walk(child, `${prefix}${key}.`);
        walk(child.items, `${prefix}${key}[].`);
      }
    };
    walk(schema, '');
    // First cells of the table: `limits.read` / `.write` names limits.write too.
    const page = readFileSync(join(GUIDE, 'profiles.md'), 'utf8');
    const named = page.split('\n').filter((l) => l.startsWith('| `')).flatMap((l) => {
      const cell = l.split(' | ')[0]!;
      const names = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      const parent = names[0]!.slice(0, names[0]!.lastIndexOf('.') + 1);
      return names.map((n) => (n.startsWith('.') ? `${parent}${n.slice(1)}` : n));
    });
    const covered = (key: string): boolean => named.some((n) => n === key || n.startsWith(`${key}.`) || n === `${key}[]` || key.startsWith(`${n}.`) || key.startsWith(`${n.replace(/\[\]$/, '')}[]`));
    expect(keys.filter((k) => !covered(k))).toEqual([]);
    expect(keys.length).toBeGreaterThan(20);
  });
});

/** The part of a JSON Schema the profile reference walks. */
interface SchemaNode {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}
