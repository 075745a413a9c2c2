/**
 * The import graph of a source folder, read as the compiler reads it (ts.preProcessFile: imports,
 * `import type`, re-exports and dynamic imports alike), and its circles (Tarjan's strongly connected
 * components), for the zone test of packages/call (docs/architecture.md "Package zones").
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** file (relative to the root, with '/') → the files of the same root it imports */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
  for (const file of sourceFiles(root)) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(path.resolve(path.dirname(file), name)));
    graph.set(relative(file), [...new Set(targets)]);
  }
  return graph;
}

/** The circles of the graph: each strongly connected component of more than one file (or a file importing itself). */
export function importCircles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** The zone of a file: its first folder, or the file itself for the composition and the package's root. */
export function zoneOf(file: string): string {
  const [first, ...rest] = file.split('/');
  if (rest.length) return first!;
  return file === 'composition.ts' ? 'composition' : file === 'index.ts' ? 'index' : 'shared';
}

/** Imports from a zone to one it must not reach: `allowed` lists each zone's permitted targets. */
export function backEdges(graph: ImportGraph, allowed: Record<string, string[]>): string[] {
  const edges: string[] = [];
  for (const [file, targets] of graph) {
    const from = zoneOf(file);
    for (const target of targets) {
      const to = zoneOf(target);
      if (to !== from && !(allowed[from] ?? []).includes(to)) edges.push(`${file} → ${target}`);
    }
  }
  return edges;
}
