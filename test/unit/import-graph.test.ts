import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

// The layers of docs/architecture.md point one way: no top-level folder depends on itself through others, and no
// module on itself. Only value imports count (a type-only import is erased: it loads nothing). The sources are
// parsed, not type-checked, and relative imports resolved as the compiler would (x.ts, x.tsx, x/index.ts).

const ROOT = path.resolve(__dirname, '../..');
const SKIPPED = new Set(['node_modules', 'test', 'bench', 'dist', 'coverage']);
const SOURCE = /\.(ts|tsx|mjs)$/;

/** Every source file of the service, by path from the root ('api/app.ts'), with its text. */
function sourceFiles(dir = ROOT, files = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !SKIPPED.has(entry.name) && !entry.name.startsWith('.')) sourceFiles(full, files);
    else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      files.set(path.relative(ROOT, full).split(path.sep).join('/'), readFileSync(full, 'utf8'));
    }
  }
  return files;
}

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** The imports and re-exports of one file, each marked type-only or not. */
function importsOf(file: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!bindings &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((e) => e.isTypeOnly)));
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause;
      const typeOnly =
        statement.isTypeOnly ||
        (!!clause &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((e) => e.isTypeOnly));
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isImportEqualsDeclaration(statement) &&
      ts.isExternalModuleReference(statement.moduleReference) &&
      ts.isStringLiteral(statement.moduleReference.expression)
    ) {
      found.push({ specifier: statement.moduleReference.expression.text, typeOnly: statement.isTypeOnly });
    }
  }
  return found;
}

/** Every import between the given files (packages, JSON and the like are left out). */
function importGraph(files: Map<string, string>): Import[] {
  const resolve = (from: string, specifier: string) => {
    const base = path.posix.join(path.posix.dirname(from), specifier);
    return [
      base,
      `${base}.ts`,
      `${base}.tsx`,
      `${base}/index.ts`,
      `${base}/index.tsx`,
      base.replace(/\.js$/, '.ts'),
    ].find((candidate) => files.has(candidate));
  };
  return [...files].flatMap(([from, text]) =>
    importsOf(from, text).flatMap(({ specifier, typeOnly }) => {
      const to = specifier.startsWith('.') ? resolve(from, specifier) : undefined;
      return to ? [{ from, to, typeOnly }] : [];
    }),
  );
}

/**
 * The cycles of a directed graph: its strongly connected components of more than one node (or a node with an
 * edge to itself), each with its members and one cycle through the first of them (Tarjan's algorithm, then a
 * breadth-first search).
 */
function cycles(edges: [string, string][]): { members: string[]; cycle: string[] }[] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]).set(b, next.get(b) ?? []);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const to of next.get(node)!) {
      if (!index.has(to)) visit(to);
      if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, low.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component = stack.splice(stack.indexOf(node));
      if (component.length > 1 || next.get(node)!.includes(node)) components.push(component);
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => {
    const [start] = component.sort();
    const cameFrom = new Map<string, string>();
    const queue = [start!];
    while (queue.length > 0) {
      const node = queue.shift()!;
      for (const to of next.get(node)!) {
        if (!component.includes(to) || cameFrom.has(to)) continue;
        cameFrom.set(to, node);
        queue.push(to);
      }
      if (cameFrom.has(start!)) break;
    }
    const cycle: string[] = [];
    for (let node = cameFrom.get(start!)!; node !== start; node = cameFrom.get(node)!) cycle.unshift(node);
    return { members: component, cycle: [start!, ...cycle] };
  });
}

/** A cycle as printed, with the other nodes of its component, if any (each of them is on some other cycle). */
const withOthers = (text: string, members: string[], cycle: string[]) => {
  const others = members.filter((node) => !cycle.includes(node));
  return others.length > 0 ? `${text} (and through them: ${others.join(', ')})` : text;
};

const topFolder = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '(root)');

/** Cycles among top-level folders through value imports, each edge with one import that makes it. */
function folderCycles(graph: Import[]): string[] {
  const example = new Map<string, Import>();
  for (const i of graph) {
    const key = `${topFolder(i.from)} -> ${topFolder(i.to)}`;
    if (!i.typeOnly && topFolder(i.from) !== topFolder(i.to) && !example.has(key)) example.set(key, i);
  }
  const edges = [...example.keys()].map((key) => key.split(' -> ') as [string, string]);
  return cycles(edges).map(({ members, cycle }) =>
    withOthers(
      cycle
        .map((folder, n) => {
          const i = example.get(`${folder} -> ${cycle[(n + 1) % cycle.length]}`)!;
          return `${folder} -> ${topFolder(i.to)} (${i.from} imports ${i.to})`;
        })
        .join('; '),
      members,
      cycle,
    ),
  );
}

/** Cycles among files through value imports: one in import order, then any other file caught in it. */
function fileCycles(graph: Import[]): string[] {
  return cycles(graph.filter((i) => !i.typeOnly).map((i) => [i.from, i.to])).map(({ members, cycle }) =>
    withOthers([...cycle, cycle[0]].join(' -> '), members, cycle),
  );
}

describe('the import graph of the sources', () => {
  const graph = importGraph(sourceFiles());

  it('finds the imports', () => {
    expect(graph).toContainEqual({ from: 'api/main.ts', to: 'api/app.ts', typeOnly: false });
    expect(
      graph.filter((i) => i.from.startsWith('workflows/') && i.to.startsWith('activities/')).every((i) => i.typeOnly),
    ).toBe(true);
  });

  it('has no cycle among top-level folders through value imports', () => {
    expect(folderCycles(graph)).toEqual([]);
  });

  it('has no cycle among files through value imports', () => {
    expect(fileCycles(graph)).toEqual([]);
  });

  it('ships no detection logic to the dashboard: of the event detections, web/ loads the catalogue only', () => {
    const loaded = new Set([...new Set(graph.map((i) => i.from))].filter((file) => file.startsWith('web/src/')));
    for (let grew = true; grew; ) {
      grew = false;
      for (const i of graph) {
        if (!i.typeOnly && loaded.has(i.from) && !loaded.has(i.to)) grew = loaded.add(i.to).has(i.to);
      }
    }
    expect(loaded).toContain('domain/events/catalog.ts');
    expect(
      [...loaded].filter((file) => /^domain\/(events\/(detections|compound)|checks\/(?!types))/.test(file)),
    ).toEqual([]);
  });
});

/** The folders the image's Containerfile copies from the source tree (not from its build stage). */
function imageFolders(containerfile: string): string[] {
  return [...containerfile.matchAll(/^COPY (?!--)(\S+) \.\/\S+$/gm)].map((m) => m[1]!);
}

/** The package a bare specifier loads ('@aws-sdk/client-s3/x' -> '@aws-sdk/client-s3'), or undefined for Node's own. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Packages the given files load at run time (value imports) that `dependencies` does not name, with a file each. */
function undeclaredPackages(files: Map<string, string>, dependencies: Record<string, string>): string[] {
  const missing = new Map<string, string>();
  for (const [file, text] of files) {
    for (const { specifier, typeOnly } of importsOf(file, text)) {
      const name = packageOf(specifier);
      if (name && !typeOnly && !(name in dependencies) && !builtinModules.includes(name) && !missing.has(name)) {
        missing.set(name, `${name} (${file})`);
      }
    }
  }
  return [...missing.values()].sort();
}

describe('the packages the service loads', () => {
  // The image installs production dependencies only (npm prune --omit=dev): a development dependency imported by
  // what the image runs fails only there, at start.
  it('are production dependencies, for every folder the image copies', () => {
    const folders = imageFolders(readFileSync(path.join(ROOT, 'Containerfile'), 'utf8'));
    expect(folders).toEqual(expect.arrayContaining(['api', 'cloud', 'worker', 'workflows', 'scripts']));
    const shipped = new Map(
      [...sourceFiles()].filter(([file]) => folders.some((folder) => file.startsWith(`${folder}/`))),
    );
    const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(undeclaredPackages(shipped, dependencies)).toEqual([]);
  });

  it('are found by the check: a development-only package, by value, is reported; a type import and Node are not', () => {
    const files = new Map(
      Object.entries({
        'cloud/a.ts': [
          "import { fromBufferPromise } from 'yauzl';",
          "import type { Options } from 'prettier';",
          "import { readFile } from 'node:fs';",
          "import path from 'path';",
          "import { S3Client } from '@aws-sdk/client-s3';",
          "import { x } from '@scope/tool/sub';",
        ].join('\n'),
      }),
    );
    expect(undeclaredPackages(files, { '@aws-sdk/client-s3': '1' })).toEqual([
      '@scope/tool (cloud/a.ts)',
      'yauzl (cloud/a.ts)',
    ]);
    expect(imageFolders('COPY package.json ./\nCOPY api ./api\nCOPY --from=build /src/web/dist ./web/dist\n')).toEqual([
      'api',
    ]);
  });
});

describe('the import graph builder', () => {
  const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

  it('resolves x.ts, x.tsx and x/index.ts, and leaves packages out', () => {
    const graph = importGraph(
      files({
        'a/main.ts':
          "import { b } from '../b';\nimport { c } from './c';\nimport { d } from '../d';\nimport ts from 'typescript';",
        'b/index.ts': '',
        'a/c.tsx': '',
        'd.ts': '',
      }),
    );
    expect(graph.map((i) => i.to)).toEqual(['b/index.ts', 'a/c.tsx', 'd.ts']);
  });

  it('marks type-only imports and re-exports', () => {
    const graph = importGraph(
      files({
        'main.ts': [
          "import type { A } from './a';",
          "import { type B, type C } from './b';",
          "export type { D } from './d';",
          "export { type E } from './e';",
          "import { F, type G } from './f';",
          "import H, { type I } from './h';",
          "export * from './j';",
          "import './k';",
        ].join('\n'),
        ...Object.fromEntries(['a', 'b', 'd', 'e', 'f', 'h', 'j', 'k'].map((name) => [`${name}.ts`, ''])),
      }),
    );
    expect(Object.fromEntries(graph.map((i) => [i.to, i.typeOnly]))).toEqual({
      'a.ts': true,
      'b.ts': true,
      'd.ts': true,
      'e.ts': true,
      'f.ts': false,
      'h.ts': false,
      'j.ts': false,
      'k.ts': false,
    });
  });

  it('finds no cycle in an acyclic tree, nor in one closed only by a type import', () => {
    const graph = importGraph(
      files({
        'api/app.ts': "import { run } from '../core/run';\nimport { rule } from '../domain/rule';",
        'core/run.ts': "import { rule } from '../domain/rule';\nimport type { App } from '../api/app';",
        'domain/rule.ts': "import { type Run } from '../core/run';",
      }),
    );
    expect(folderCycles(graph)).toEqual([]);
    expect(fileCycles(graph)).toEqual([]);
  });

  it('reports a cycle among files, and among folders with an import per edge', () => {
    const graph = importGraph(
      files({
        'api/a.ts': "import { b } from './b';\nimport { x } from '../activities/x';",
        'api/b.ts': "import { a } from './a';",
        'activities/x.ts': "import { c } from '../api/c';",
        'api/c.ts': '',
      }),
    );
    expect(fileCycles(graph)).toEqual(['api/a.ts -> api/b.ts -> api/a.ts']);
    expect(folderCycles(graph)).toEqual([
      'activities -> api (activities/x.ts imports api/c.ts); api -> activities (api/a.ts imports activities/x.ts)',
    ]);
  });
});
