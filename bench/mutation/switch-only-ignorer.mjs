// A Stryker ignorer: leaves out of the mutate set the reference's code that only a defect or
// variant switch reaches. A mutation run has every switch off, so a mutant there either keeps the
// switch off (no client can tell) or turns its effect on, which that switch's own calibration
// already proves a run fails. Judged on the syntax tree, so it follows the code as it changes and
// needs no comment in the reference's source:
// - a switch test: `<...>defects.has(...)` / `variants.has(...)` (or a SwitchSet held as `d`/`v`),
//   the ledger's `d('...')`/`v('...')`, a flag of the ledger behaviour (`b.<flag>`) or of the
//   event-stream framing (`framing.<flag>`, `this.#framing.<flag>`) that is false with every switch
//   off; a `const` the file sets to such a test (`const slides = d('...')`);
// - an expression false with every switch off: a switch test, `A && G` or `G && A`, `G1 || G2`;
// - what only such an expression opens: an `if`'s consequent, a `?:`'s consequent;
// - a function of the file whose every reference sits in code left out by these rules;
// - a switch table: a property value of a `const` object literal whose every reading outside
//   left-out code is `Object.keys(...)` (the switch names), so only switch code reads its values;
// - a class, or a method of a class, of the reference whose every use in any of the reference's
//   files (the class's name as a value, the method's name after a `.`) sits in left-out code: a
//   limiter only a defect constructs, a method only a variant calls;
// - the value of a `const` whose every read sits in left-out code (`const routeError = ...` read
//   only as `routeError && defects.has(...)`);
// - a read of a switch-only property (`quirks.rejectLocal`, `after.skipTies`): a name that every
//   write in the reference's files sets to an expression false with every switch off, or to
//   `false` (`{ rejectLocal: b.offsetlessRejected }`, `x.flag = variants.has(...)`), and `P === true`
//   of such a read. Judged by name across the files: switchOnlyProperties lists them, and its
//   self-test names each, so a name an input also carries is seen before it is trusted.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// @babel/core comes with @stryker-mutator/core (its instrumenter parses with it).
import babel from '@babel/core';
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';
import { ledgerBehaviour } from '../../dist/reference/ledger-behaviour.js';
import { framingOf } from '../../dist/reference/sse-writer.js';
import { SwitchSet } from '../../dist/reference/switches.js';

export const REASON = 'only runs under a defect or variant switch';

/** The ledger behaviour's flags that are false with every switch off (computed, so never stale). */
export const LEDGER_OFF_FLAGS = (() => {
  const none = new SwitchSet([]);
  const b = ledgerBehaviour({ defects: none, variants: none, ledgerShape: { pageCap: null } });
  return new Set(Object.entries(b).filter(([, value]) => value === false).map(([name]) => name));
})();

/** The event-stream framing's flags that are false with every switch off (the variants set them). */
export const FRAMING_OFF_FLAGS = new Set(
  Object.entries(framingOf(new SwitchSet([])))
    .filter(([, value]) => value === false)
    .map(([name]) => name),
);

const SWITCH_SETS = new Set(['defects', 'variants', 'd', 'v']);

function lastName(node) {
  if (node?.type === 'Identifier') return node.name;
  if (node?.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return node.property.name;
  return undefined;
}

/** `framing` or `this.#framing`: the event-stream framing of the writer. */
function isFraming(node) {
  if (node.type === 'Identifier') return node.name === 'framing';
  return node.type === 'MemberExpression' && node.object.type === 'ThisExpression' && node.property.type === 'PrivateName' && node.property.id.name === 'framing';
}

/** The switch-only properties the ignorer reads against (set by switchOnlyIgnorerOf). */
let offProperties = new Set();

function isSwitchTest(node, scope) {
  if (node?.type === 'Identifier' && scope !== undefined) {
    const binding = scope.getBinding(node.name);
    const init = binding?.kind === 'const' && binding.path.node.type === 'VariableDeclarator' ? binding.path.node.init : undefined;
    return init !== undefined && init !== null && isSwitchTest(init, binding.path.scope);
  }
  if (node?.type === 'CallExpression') {
    const callee = node.callee;
    // The ledger's own helpers: `d('to-inclusive')` reads `ledger-to-inclusive`.
    if (callee.type === 'Identifier' && (callee.name === 'd' || callee.name === 'v')) return node.arguments.length === 1;
    return callee.type === 'MemberExpression' && lastName(callee) === 'has' && SWITCH_SETS.has(lastName(callee.object) ?? '');
  }
  if (node?.type === 'MemberExpression' && !node.computed && node.object.type === 'Identifier' && node.object.name === 'b') {
    return node.property.type === 'Identifier' && LEDGER_OFF_FLAGS.has(node.property.name);
  }
  if (node?.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' && isFraming(node.object)) {
    return FRAMING_OFF_FLAGS.has(node.property.name);
  }
  if ((node?.type === 'MemberExpression' || node?.type === 'OptionalMemberExpression') && !node.computed && node.property.type === 'Identifier') {
    return offProperties.has(node.property.name);
  }
  return false;
}

/** True when the expression (in `scope`, for the names it reads) is false in a run with every switch off. */
export function offWithoutSwitches(node, scope) {
  if (node?.type === 'ParenthesizedExpression') return offWithoutSwitches(node.expression, scope);
  if (isSwitchTest(node, scope)) return true;
  if (node?.type === 'LogicalExpression' && node.operator === '&&') return offWithoutSwitches(node.left, scope) || offWithoutSwitches(node.right, scope);
  if (node?.type === 'LogicalExpression' && node.operator === '||') return offWithoutSwitches(node.left, scope) && offWithoutSwitches(node.right, scope);
  // `flag === true`, as a quirk of an optional flag is read.
  if (node?.type === 'BinaryExpression' && node.operator === '===') {
    const isTrue = (n) => n.type === 'BooleanLiteral' && n.value === true;
    return (isTrue(node.right) && offWithoutSwitches(node.left, scope)) || (isTrue(node.left) && offWithoutSwitches(node.right, scope));
  }
  return false;
}

/** The names written in `program`'s object literals and member assignments, each with the value written. */
function propertyWrites(program) {
  const writes = [];
  const keyName = (key) => (key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : undefined);
  program.traverse({
    ObjectProperty(p) {
      const name = p.node.computed ? undefined : keyName(p.node.key);
      if (p.parentPath.node.type === 'ObjectExpression' && name !== undefined) writes.push({ name, value: p.get('value') });
    },
    AssignmentExpression(p) {
      const left = p.node.left;
      if (left.type === 'MemberExpression' && !left.computed && left.property.type === 'Identifier') writes.push({ name: left.property.name, value: p.get('right') });
    },
    ClassProperty(p) {
      const name = p.node.computed ? undefined : keyName(p.node.key);
      if (name !== undefined && p.node.value !== null && p.node.value !== undefined) writes.push({ name, value: p.get('value') });
    },
  });
  return writes;
}

/**
 * The property names every write of which, in any of `programs`, is false with every switch off:
 * an expression offWithoutSwitches judges so, or `false` (a default a switch overrides). Found
 * again until nothing changes, since a switch-only property may be written from another one.
 */
function switchOnlyPropertiesOf(programs) {
  const writes = programs.flatMap(propertyWrites);
  const names = new Set(writes.map((w) => w.name));
  const off = new Set();
  for (let changed = true; changed; ) {
    changed = false;
    offProperties = off;
    for (const name of names) {
      if (off.has(name)) continue;
      const all = writes.filter((w) => w.name === name);
      const isOff = (w) => (w.value.node.type === 'BooleanLiteral' && w.value.node.value === false) || offWithoutSwitches(w.value.node, w.value.scope);
      // A name written only as `false` is no switch's: it is never set.
      if (all.every(isOff) && all.some((w) => w.value.node.type !== 'BooleanLiteral')) {
        off.add(name);
        changed = true;
      }
    }
  }
  return off;
}

/** `Object.keys(x)`: reads the keys of x, never its values. */
function readsKeysOnly(ref) {
  const call = ref.parentPath?.node;
  return call?.type === 'CallExpression' && ref.listKey === 'arguments' && lastName(call.callee) === 'keys' && lastName(call.callee.object) === 'Object';
}

/** A property value of a const object literal whose values only left-out code reads. */
function inSwitchTable(path) {
  const property = path.parentPath;
  if (path.key !== 'value' || property?.node.type !== 'ObjectProperty') return false;
  const declarator = property.parentPath?.parentPath;
  if (declarator?.node.type !== 'VariableDeclarator' || declarator.node.id.type !== 'Identifier') return false;
  const binding = declarator.scope.getBinding(declarator.node.id.name);
  if (binding?.kind !== 'const' || binding.path.node !== declarator.node) return false;
  const refs = binding.referencePaths;
  return refs.length > 0 && refs.every((ref) => readsKeysOnly(ref) || insideLeftOut(ref, declarator));
}

function leftOut(path) {
  const node = path.node;
  // A declaration's own name is no read of the switch.
  if (node.type === 'Identifier' && path.key === 'id') return false;
  if (offWithoutSwitches(node, path.scope)) return true;
  if (inSwitchTable(path)) return true;
  const parent = path.parentPath?.node;
  const scope = path.parentPath?.scope;
  if (parent?.type === 'IfStatement' && path.key === 'consequent' && offWithoutSwitches(parent.test, scope)) return true;
  if (parent?.type === 'ConditionalExpression' && path.key === 'consequent' && offWithoutSwitches(parent.test, scope)) return true;
  if (node.type === 'FunctionDeclaration' && node.id) {
    const binding = path.parentPath?.scope.getBinding(node.id.name);
    const refs = binding?.referencePaths ?? [];
    if (refs.length > 0 && refs.every((ref) => insideLeftOut(ref, path))) return true;
  }
  if (parent?.type === 'VariableDeclarator' && path.key === 'init' && parent.id.type === 'Identifier' && !judging.has(parent)) {
    const binding = path.parentPath.scope.getBinding(parent.id.name);
    const refs = binding?.kind === 'const' ? binding.referencePaths : [];
    // Guarded: consts read in each other's initialisers (functions calling each other) end here.
    judging.add(parent);
    try {
      if (refs.length > 0 && refs.every((ref) => insideLeftOut(ref, path))) return true;
    } finally {
      judging.delete(parent);
    }
  }
  return false;
}

/** Declarators whose reads are being judged: a const read in its own reads' path is not left out by them. */
const judging = new Set();

/** Whether the path or one of its ancestors (short of `stop`, the function itself) is left out. */
function insideLeftOut(path, stop) {
  for (let p = path; p && p !== stop; p = p.parentPath) {
    if (p.node === stop.node) return false;
    if (leftOut(p)) return true;
  }
  return false;
}

/** A class's name as a value (not a type, not its own declaration or an import's name). */
const TS_VALUE_NODES = new Set(['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'TSParameterProperty']);

function isValueUse(path) {
  if (!path.isReferencedIdentifier()) return false;
  for (let p = path.parentPath; p; p = p.parentPath) if (p.node.type.startsWith('TS') && !TS_VALUE_NODES.has(p.node.type)) return false;
  return true;
}

function methodName(node) {
  return (node.type === 'ClassMethod' && node.kind === 'method') && !node.computed && node.key.type === 'Identifier' ? node.key.name : undefined;
}

/** Each file (`{ name, content }`) parsed: `{ name, program }`. */
function parsedPrograms(files) {
  return files.map(({ name, content }) => {
    const ast = babel.parseSync(content, { filename: name, babelrc: false, configFile: false, parserOpts: { plugins: ['typescript'] } });
    let program;
    babel.traverse(ast, { Program(p) { program = p; p.stop(); } });
    return { name, program };
  });
}

/** The switch-only property names of the files (`{ name, content }`): see switchOnlyPropertiesOf. */
export function switchOnlyProperties(files) {
  const saved = offProperties;
  try {
    return switchOnlyPropertiesOf(parsedPrograms(files).map((p) => p.program));
  } finally {
    offProperties = saved;
  }
}

/**
 * The classes and methods of each file (`{ name, content }`) whose every use in any of the files
 * sits in left-out code: `file -> Set('Class' | 'Class.method')`.
 */
export function switchOnlyMembers(files) {
  const programs = parsedPrograms(files);
  const uses = (visit) => {
    const found = [];
    for (const { program } of programs) program.traverse({ enter(p) { if (visit(p)) found.push(p); } });
    return found;
  };
  // Uses inside the class or method itself do not count; the rest must all sit in left-out code.
  const onlySwitches = (refs, own) => {
    const outside = refs.filter((ref) => !ref.findParent((p) => p.node === own.node));
    return outside.length > 0 && outside.every((ref) => insideLeftOut(ref, { node: null }));
  };
  const members = new Map();
  for (const { name, program } of programs) {
    const out = new Set();
    program.traverse({
      ClassDeclaration(cls) {
        const className = cls.node.id?.name;
        if (className === undefined) return;
        if (onlySwitches(uses((p) => p.node.type === 'Identifier' && p.node.name === className && isValueUse(p)), cls)) out.add(className);
        for (const method of cls.get('body.body')) {
          const m = methodName(method.node);
          if (m === undefined) continue;
          const calls = uses((p) => (p.node.type === 'MemberExpression' || p.node.type === 'OptionalMemberExpression') && !p.node.computed && p.node.property.type === 'Identifier' && p.node.property.name === m);
          if (onlySwitches(calls, method)) out.add(`${className}.${m}`);
        }
      },
    });
    members.set(name, out);
  }
  return members;
}

/** The reference's own files, as mutate.mjs chooses them (lib/reference, defects and switches aside: they hold no calls). */
function referenceFiles() {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  return readdirSync(`${root}lib/reference`, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('defects/'))
    .map((f) => ({ name: `lib/reference/${f}`, content: readFileSync(`${root}lib/reference/${f}`, 'utf8') }));
}

/** An ignorer that judges classes, methods and properties against `files` (the reference's, by default). */
export function switchOnlyIgnorerOf(files = undefined) {
  let members;
  let properties;
  const memberOut = (path) => {
    const node = path.node;
    const cls = node.type === 'ClassDeclaration' ? path : methodName(node) !== undefined ? path.parentPath?.parentPath : undefined;
    const className = cls?.node.type === 'ClassDeclaration' ? cls.node.id?.name : undefined;
    if (className === undefined) return false;
    members ??= switchOnlyMembers(files ?? referenceFiles());
    const filename = String(path.hub?.file?.opts?.filename ?? '').replaceAll('\\', '/');
    for (const [name, out] of members) {
      if (filename === name || filename.endsWith(`/${name}`)) return out.has(node.type === 'ClassDeclaration' ? className : `${className}.${methodName(node)}`);
    }
    return false;
  };
  return {
    shouldIgnore(path) {
      properties ??= switchOnlyProperties(files ?? referenceFiles());
      offProperties = properties;
      return leftOut(path) || memberOut(path) ? REASON : undefined;
    },
  };
}

export const switchOnlyIgnorer = switchOnlyIgnorerOf();

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'switch-only', switchOnlyIgnorer)];
