// A Stryker ignorer: leaves out of the mutate set the reference's code that only a defect or
// variant switch reaches. A mutation run has every switch off, so a mutant there either keeps the
// switch off (no client can tell) or turns its effect on, which that switch's own calibration
// already proves a run fails. Judged on the syntax tree, so it follows the code as it changes and
// needs no comment in the reference's source:
// - a switch test: `<...>defects.has(...)` / `variants.has(...)` (or a SwitchSet held as `d`/`v`),
//   the ledger's `d('...')`/`v('...')`, and a flag of the ledger behaviour (`b.<flag>`) that is
//   false with every switch off; a `const` the file sets to such a test (`const slides = d('...')`);
// - an expression false with every switch off: a switch test, `A && G` or `G && A`, `G1 || G2`;
// - what only such an expression opens: an `if`'s consequent, a `?:`'s consequent;
// - a function of the file whose every reference sits in code left out by these rules.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';
import { ledgerBehaviour } from '../../dist/reference/ledger-behaviour.js';
import { SwitchSet } from '../../dist/reference/switches.js';

export const REASON = 'only runs under a defect or variant switch';

/** The ledger behaviour's flags that are false with every switch off (computed, so never stale). */
export const LEDGER_OFF_FLAGS = (() => {
  const none = new SwitchSet([]);
  const b = ledgerBehaviour({ defects: none, variants: none, ledgerShape: { pageCap: null } });
  return new Set(Object.entries(b).filter(([, value]) => value === false).map(([name]) => name));
})();

const SWITCH_SETS = new Set(['defects', 'variants', 'd', 'v']);

function lastName(node) {
  if (node?.type === 'Identifier') return node.name;
  if (node?.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return node.property.name;
  return undefined;
}

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
  return false;
}

/** True when the expression (in `scope`, for the names it reads) is false in a run with every switch off. */
export function offWithoutSwitches(node, scope) {
  if (node?.type === 'ParenthesizedExpression') return offWithoutSwitches(node.expression, scope);
  if (isSwitchTest(node, scope)) return true;
  if (node?.type === 'LogicalExpression' && node.operator === '&&') return offWithoutSwitches(node.left, scope) || offWithoutSwitches(node.right, scope);
  if (node?.type === 'LogicalExpression' && node.operator === '||') return offWithoutSwitches(node.left, scope) && offWithoutSwitches(node.right, scope);
  return false;
}

function leftOut(path) {
  const node = path.node;
  // A declaration's own name is no read of the switch.
  if (node.type === 'Identifier' && path.key === 'id') return false;
  if (offWithoutSwitches(node, path.scope)) return true;
  const parent = path.parentPath?.node;
  const scope = path.parentPath?.scope;
  if (parent?.type === 'IfStatement' && path.key === 'consequent' && offWithoutSwitches(parent.test, scope)) return true;
  if (parent?.type === 'ConditionalExpression' && path.key === 'consequent' && offWithoutSwitches(parent.test, scope)) return true;
  if (node.type === 'FunctionDeclaration' && node.id) {
    const binding = path.parentPath?.scope.getBinding(node.id.name);
    const refs = binding?.referencePaths ?? [];
    if (refs.length > 0 && refs.every((ref) => insideLeftOut(ref, path))) return true;
  }
  return false;
}

/** Whether the path or one of its ancestors (short of `stop`, the function itself) is left out. */
function insideLeftOut(path, stop) {
  for (let p = path; p && p !== stop; p = p.parentPath) {
    if (p.node === stop.node) return false;
    if (leftOut(p)) return true;
  }
  return false;
}

export const switchOnlyIgnorer = {
  shouldIgnore(path) {
    return leftOut(path) ? REASON : undefined;
  },
};

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'switch-only', switchOnlyIgnorer)];
