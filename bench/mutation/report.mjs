// The mutation report, from Stryker's mutation.json (mutation-testing-report-schema: 1-based
// lines and columns, each file's source) and the records run-mutant.mjs appended (which
// requirements failed for each mutant): report.md for people, summary.json for tools.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { sectionOf } from './sections.mjs';

/** Stryker's statuses, in the report's words. */
const STATE = {
  Killed: 'killed',
  Survived: 'survived',
  Timeout: 'timedOut',
  NoCoverage: 'noCoverage',
  CompileError: 'errors',
  RuntimeError: 'errors',
  Ignored: 'ignored',
  Pending: 'ignored',
};

const empty = () => ({ total: 0, killed: 0, survived: 0, timedOut: 0, noCoverage: 0, errors: 0, ignored: 0, notRun: 0 });

/** Killed and timed out over every mutant that ran to a verdict (not ignored, not an error). */
function score(c) {
  const judged = c.killed + c.survived + c.timedOut + c.noCoverage;
  return judged === 0 ? 'n/a' : `${((100 * (c.killed + c.timedOut)) / judged).toFixed(1)}%`;
}

function readRecords(dir) {
  const file = join(dir, 'records.jsonl');
  const byMutant = new Map();
  if (!existsSync(file)) return byMutant;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line);
      byMutant.set(String(r.mutant), r);
    } catch {
      // A line cut short by a mutant killed on timeout: that mutant has no record.
    }
  }
  return byMutant;
}

/** The file's lines the mutant spans, before and after, as a unified-diff fragment. */
export function mutantDiff(source, mutant) {
  const lines = source.split('\n');
  const { start, end } = mutant.location;
  const before = lines.slice(start.line - 1, end.line);
  const head = (lines[start.line - 1] ?? '').slice(0, start.column - 1);
  const tail = (lines[end.line - 1] ?? '').slice(end.column - 1);
  const after = `${head}${mutant.replacement ?? ''}${tail}`.split('\n');
  return [`@@ -${start.line},${before.length} +${start.line},${after.length} @@`, ...before.map((l) => `-${l}`), ...after.map((l) => `+${l}`)].join('\n');
}

/** The report's data: counts overall, per file and per section, and every survivor. */
export function buildSummary(mutation, records, meta, root) {
  const overall = empty();
  const perFile = {};
  const perSection = {};
  const survivors = [];
  const runMs = [];
  for (const [name, file] of Object.entries(mutation.files ?? {})) {
    const path = name.startsWith('/') ? relative(root, name).split(sep).join('/') : name;
    const section = sectionOf(path);
    for (const m of file.mutants ?? []) {
      const record = records.get(String(m.id));
      const state = record?.notRun === true ? 'notRun' : (STATE[m.status] ?? 'errors');
      for (const c of [overall, (perFile[path] ??= empty()), (perSection[section] ??= empty())]) {
        c.total++;
        c[state]++;
      }
      if (record?.ms !== undefined) runMs.push(record.ms);
      if (state === 'survived') {
        survivors.push({
          id: String(m.id),
          file: path,
          line: m.location.start.line,
          section,
          mutator: m.mutatorName,
          diff: mutantDiff(file.source ?? '', m),
        });
      }
    }
  }
  const killedBy = {};
  for (const r of records.values()) for (const id of r.failed ?? []) killedBy[id] = (killedBy[id] ?? 0) + 1;
  runMs.sort((a, b) => a - b);
  const meanMs = runMs.length === 0 ? undefined : Math.round(runMs.reduce((a, b) => a + b, 0) / runMs.length);
  return {
    ...overall,
    score: score(overall),
    sample: meta.totalLines === undefined ? undefined : { chosenLines: meta.chosenLines, totalLines: meta.totalLines, share: meta.chosenLines / meta.totalLines, seed: meta.seed },
    wallMs: meta.wallMs,
    meanMsPerMutant: meanMs,
    perFile: Object.fromEntries(Object.entries(perFile).map(([k, v]) => [k, { ...v, score: score(v) }])),
    perSection: Object.fromEntries(Object.entries(perSection).map(([k, v]) => [k, { ...v, score: score(v) }])),
    killedBy,
    survivors,
  };
}

const row = (name, c) => `| ${name} | ${c.total} | ${c.killed} | ${c.survived} | ${c.timedOut} | ${c.noCoverage} | ${c.errors} | ${c.notRun} | ${c.score} |`;
const HEAD = ['| | mutants | killed | survived | timed out | not covered | errors | not run | score |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|'];

export function renderMarkdown(s) {
  const out = ['# Mutation report: lib/reference', ''];
  if (s.sample !== undefined) {
    out.push(`Sample: ${s.sample.chosenLines} of ${s.sample.totalLines} mutable lines (${(100 * s.sample.share).toFixed(1)}%), seed ${s.sample.seed}; every mutant on a chosen line ran.`);
  }
  if (s.meanMsPerMutant !== undefined) out.push(`Time: ${(s.meanMsPerMutant / 1000).toFixed(1)} s per mutant (mean harness run)${s.wallMs === undefined ? '' : `, ${(s.wallMs / 60000).toFixed(1)} min wall in all`}.`);
  out.push('', '## Overall', '', ...HEAD, row('all', s), '', '## Per spec section', '', ...HEAD);
  for (const [k, v] of Object.entries(s.perSection).sort()) out.push(row(k, v));
  out.push('', '## Per file', '', ...HEAD);
  for (const [k, v] of Object.entries(s.perFile).sort()) out.push(row(k, v));
  out.push('', '## Requirements that killed mutants', '');
  const killers = Object.entries(s.killedBy).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (killers.length === 0) out.push('(none recorded)');
  for (const [id, n] of killers) out.push(`- ${id}: ${n}`);
  out.push('', `## Survivors (${s.survivors.length})`, '');
  for (const m of s.survivors) out.push(`### #${m.id} ${m.file}:${m.line} (${m.section}, ${m.mutator})`, '', '```diff', m.diff, '```', '');
  return `${out.join('\n')}\n`;
}

/** Reads DIR/mutation.json, DIR/records.jsonl and DIR/meta.json; writes DIR/report.md and DIR/summary.json. */
export function writeReport(dir, root) {
  const mutation = JSON.parse(readFileSync(join(dir, 'mutation.json'), 'utf8'));
  const meta = existsSync(join(dir, 'meta.json')) ? JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) : {};
  const summary = buildSummary(mutation, readRecords(dir), meta, root);
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(dir, 'report.md'), renderMarkdown(summary));
  return { summary };
}
