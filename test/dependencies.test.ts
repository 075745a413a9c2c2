/**
 * Each workspace declares what it uses and uses what it declares: every bare import (of a workspace
 * or an npm package) in a workspace's files is in its package.json, and every package its
 * package.json lists is imported, named in its tsconfig "types" or run by one of its scripts.
 * Imports are read from the syntax tree (TypeScript's parser), so strings and comments never count.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

interface PackageJson {
  workspaces?: string[];
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Declared on purpose though no file imports them, with the reason. */
const IMPORTED_BY_A_DEPENDENCY: Record<string, Record<string, string>> = {
  'packages/call': {
    // stanza's browser build imports Node's `events`; this package is what the bundler gives it
    events: "stanza's browser build imports Node's events module",
  },
};

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const root = readJson<PackageJson>('package.json');
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => /\.(ts|tsx|js|mjs|cjs|css)$/.test(f));
const fileSet = new Set(files);

/** The package a bare specifier names ('@scope/name/sub' → '@scope/name'), or null for a path or a builtin. */
export function packageOf(specifier: string): string | null {
  if (/^[./]/.test(specifier) || specifier.startsWith('node:') || /^[a-z]+:/.test(specifier)) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return builtinModules.includes(name) ? null : name;
}

/** Every module specifier a file imports, re-exports, requires, mocks or references as types. */
export function specifiersOf(fileName: string, text: string): string[] {
  if (fileName.endsWith('.css')) return [...text.matchAll(/@import\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = source.typeReferenceDirectives.map((ref) => ref.fileName);
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    } else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) {
      found.push(node.expression.text);
    } else if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression.getText(source);
      if (['import', 'require', 'vi.mock', 'vi.doMock', 'vi.importActual'].includes(callee))
        found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The bare packages a workspace's files import, with a file that does; a relative import of a file
 * outside every workspace (vite.apps.ts) counts as the workspace's own. */
function importsOf(workspace: string, workspaces: string[]): Map<string, string> {
  const used = new Map<string, string>();
  const seen = new Set<string>();
  const queue = files.filter((f) => f.startsWith(`${workspace}/`));
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiersOf(file, readFileSync(file, 'utf8'))) {
      const name = packageOf(specifier);
      if (name) {
        if (!used.has(name)) used.set(name, file);
      } else if (specifier.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
        if (fileSet.has(target) && !workspaces.some((w) => target.startsWith(`${w}/`))) queue.push(target);
      }
    }
  }
  return used;
}

/** Packages named by the workspace's tsconfig "types" ('vite/client' → vite, 'node' → @types/node). */
function typesOf(workspace: string): string[] {
  const config = ts.readConfigFile(`${workspace}/tsconfig.json`, (file) => ts.sys.readFile(file)).config as {
    compilerOptions?: { types?: string[] };
  };
  return (config.compilerOptions?.types ?? [])
    .map((t) => packageOf(t) ?? t)
    .map((t) => (t.includes('/') || t === 'vite' ? t : `@types/${t}`));
}

const workspaces = root.workspaces ?? [];

// parsing every source file takes a few seconds on a busy machine
describe('workspace dependencies (package.json)', { timeout: 30_000 }, () => {
  it('when the repository is read, then it finds its workspaces and their imports', () => {
    expect(workspaces.length).toBeGreaterThan(5);
    expect(importsOf('apps/server', workspaces).has('fastify')).toBe(true);
    // a string that looks like a module name is no import; a type-only import is
    expect(specifiersOf('x.ts', "const s = 'stanza'; import type { A } from '@lobby/contracts';")).toEqual([
      '@lobby/contracts',
    ]);
  });

  it.each(workspaces)(
    'when %s imports a package, then its package.json declares it, and it declares nothing it does not use',
    (workspace) => {
      const pkg = readJson<PackageJson>(`${workspace}/package.json`);
      const declared = new Set([
        ...Object.keys(pkg.dependencies ?? {}),
        ...Object.keys(pkg.devDependencies ?? {}),
      ]);
      const used = importsOf(workspace, workspaces);
      const types = typesOf(workspace);
      // the test tooling is the root's (vitest runs every workspace's test/ from the root)
      const rootTools = new Set(Object.keys(root.devDependencies ?? {}));
      const undeclared = [...used]
        .filter(
          ([name, file]) =>
            !declared.has(name) && !(rootTools.has(name) && file.startsWith(`${workspace}/test/`)),
        )
        .map(([name, file]) => `${name} (${file})`);
      undeclared.push(
        ...types.filter((t) => !declared.has(t) && !rootTools.has(t)).map((t) => `${t} (tsconfig types)`),
      );
      const scripts = Object.values(pkg.scripts ?? {}).map((s) => s.split(' ')[0]);
      const unused = [...declared].filter(
        (name) =>
          !used.has(name) &&
          !types.includes(name) &&
          !scripts.includes(name) &&
          !IMPORTED_BY_A_DEPENDENCY[workspace]?.[name],
      );
      expect({ undeclared, unused }).toEqual({ undeclared: [], unused: [] });
    },
  );
});
