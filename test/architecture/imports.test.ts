/**
 * The rooms of src/ stay apart: no import circles between files nor between rooms (folders), a
 * solver core without Node built-ins, and a client that does not reach into the CLI. The imports are read with the TypeScript parser, so
 * multi-line, re-exporting and dynamic imports count. Type-only imports count too but are marked,
 * because tsc erases them (with our settings also a statement whose every name is marked `type`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

interface Import {
  from: string;
  /** A path relative to src/ for a relative import, else the module name as written. */
  to: string;
  relative: boolean;
  /** Erased by tsc: no edge at run time. */
  typeOnly: boolean;
}

type Graph = Map<string, Import[]>;

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts'))
    .sort();
}

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(SRC + file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean): void => {
    const relative = specifier.startsWith('.');
    const to = relative ? posix.join(posix.dirname(file), specifier.replace(/\.js$/, '.ts')) : specifier;
    found.push({ from: file, to, relative, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, isTypeOnly(node));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier)) add(specifier.text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const names = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null;
    return names !== null && names.length > 0 && names.every((name) => name.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  const names = bindings && ts.isNamedImports(bindings) ? bindings.elements : null;
  return clause.name === undefined && names !== null && names.length > 0 && names.every((name) => name.isTypeOnly);
}

function importGraph(): Graph {
  return new Map(sourceFiles().map((file) => [file, importsOf(file)]));
}

/** Strongly connected components of more than one file (or a file importing itself): Tarjan. */
function circles(graph: Graph, follow: (edge: Import) => boolean = () => true): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    const next = graph.get(file)!.filter((edge) => graph.has(edge.to) && follow(edge));
    for (const { to } of next) {
      if (!order.has(to)) visit(to);
      if (stack.includes(to)) low.set(file, Math.min(low.get(file)!, low.get(to)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1 || next.some((edge) => edge.to === file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The imports inside one circle, for the failure message; `(type)` marks an erased one. */
function describeCircle(graph: Graph, circle: string[], runtime: string[][]): string {
  const edges = circle.flatMap((file) => graph.get(file)!.filter((edge) => circle.includes(edge.to)));
  const when = runtime.some((inner) => circle.includes(inner[0]!)) ? 'at run time too' : 'types only';
  const list = edges.map((edge) => `${edge.from} → ${edge.to}${edge.typeOnly ? ' (type)' : ''}`);
  return `[${circle.join(', ')}] (${when}): ${list.join('; ')}`;
}

/**
 * The room of a file: its folder directly under src/ (`solver/ls/move.ts` is in `solver`), or the
 * file itself when it lies directly in src/ (`errors.ts`, shared by all). Sub-folders do not count
 * as rooms: they are their room's inside arrangement (solver/search/ and solver/ls/ serve one
 * search), and a circle among their files is still one of the file circles above. A loop between
 * rooms is a layering fault that no file circle shows: input/ importing travel/ while travel/
 * imported input/'s CSV reader (now the csv/ room below both) was one.
 */
function roomOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? file : file.slice(0, slash);
}

/** One node per room; an edge per pair of rooms, type-only when every import behind it is. */
function roomGraph(graph: Graph): Graph {
  const rooms: Graph = new Map();
  for (const edges of graph.values()) {
    for (const edge of edges) {
      if (!edge.relative || !graph.has(edge.to)) continue;
      const from = roomOf(edge.from);
      const to = roomOf(edge.to);
      if (!rooms.has(from)) rooms.set(from, []);
      if (!rooms.has(to)) rooms.set(to, []);
      if (from === to) continue;
      const known = rooms.get(from)!.find((e) => e.to === to);
      if (known) known.typeOnly &&= edge.typeOnly;
      else rooms.get(from)!.push({ from, to, relative: true, typeOnly: edge.typeOnly });
    }
  }
  return rooms;
}

/** The file imports behind the room edges of one loop, a few per edge, for the failure message. */
function describeRoomLoop(graph: Graph, loop: string[]): string {
  const crossing = [...graph.values()]
    .flat()
    .filter((edge) => edge.relative && loop.includes(roomOf(edge.to)) && loop.includes(roomOf(edge.from)))
    .filter((edge) => roomOf(edge.from) !== roomOf(edge.to));
  const byPair = new Map<string, string[]>();
  for (const edge of crossing) {
    const pair = `${roomOf(edge.from)} → ${roomOf(edge.to)}`;
    byPair.set(pair, [...(byPair.get(pair) ?? []), `${edge.from} → ${edge.to}${edge.typeOnly ? ' (type)' : ''}`]);
  }
  const pairs = [...byPair].map(([pair, files]) => `${pair} (${files.slice(0, 3).join('; ')})`);
  return `[${loop.join(', ')}]: ${pairs.join('; ')}`;
}

/**
 * Room loops known and left for now, each as its rooms sorted and joined by ' ↔ ': none. A loop
 * may only be listed here while the rooms it joins are being reworked elsewhere, with a reason.
 */
const KNOWN_ROOM_LOOPS: readonly string[] = [];

describe('src/ imports', () => {
  const graph = importGraph();

  it('every relative import names a file under src/ (else a circle could hide behind it)', () => {
    const unresolved = [...graph.values()].flat().filter((edge) => edge.relative && !graph.has(edge.to));
    expect(unresolved).toEqual([]);
  });

  // Type-only imports count: a type circle is a layering circle too (the input barrel is one),
  // even though tsc erases it and it cannot break module loading.
  it('has no import circles', () => {
    const runtime = circles(graph, (edge) => !edge.typeOnly);
    expect(circles(graph).map((circle) => describeCircle(graph, circle, runtime))).toEqual([]);
  });

  // Type-only imports count here too, as for the file circles.
  it('has no loops between rooms (folders directly under src/)', () => {
    const loops = circles(roomGraph(graph)).filter((loop) => !KNOWN_ROOM_LOOPS.includes(loop.join(' ↔ ')));
    expect(loops.map((loop) => describeRoomLoop(graph, loop))).toEqual([]);
  });

  it('the known room loops are still loops (a fixed one leaves the list)', () => {
    const loops = circles(roomGraph(graph)).map((loop) => loop.join(' ↔ '));
    expect(KNOWN_ROOM_LOOPS.filter((known) => !loops.includes(known))).toEqual([]);
  });

  it('the solver core imports no Node built-ins', () => {
    const found = [...graph.values()]
      .flat()
      .filter((edge) => edge.from.startsWith('solver/') && isBuiltin(edge.to))
      .map((edge) => `${edge.from} → ${edge.to}`);
    expect([...new Set(found)]).toEqual([]);
  });

  it('the client imports nothing from the CLI', () => {
    const found = [...graph.values()]
      .flat()
      .filter((edge) => edge.from.startsWith('client/') && edge.to.startsWith('cli/'))
      .map((edge) => `${edge.from} → ${edge.to}`);
    expect([...new Set(found)]).toEqual([]);
  });
});
