#!/usr/bin/env node
// Benchmark: a full certification of the embedded reference with the spec's limits (600 reads and
// 60 writes per token per 60 s), through the CLI as a user runs it. Prints the wall time, the
// requests per token and pool, the unplanned 429s, and the share of the run spent waiting.
// Targets: at most 75 s wall (the floor is the 60 s window itself) and no unplanned 429.
// Run with `npm run bench` (which builds first). Stops by itself: the run is killed after 180 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WALL_TARGET_S = 75;
const HARD_STOP_MS = 180_000;
/** Gaps between requests shorter than this are the harness's own work, not waiting. */
const IDLE_GAP_MS = 100;

function runCertification(outDir) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'asi-conformance.js'), 'run', '--out', outDir, '--format', 'json,har', '--quiet'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), HARD_STOP_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, wallMs: Date.now() - started });
    });
  });
}

/** Milliseconds of the run during which no request was in flight, counting only gaps of IDLE_GAP_MS or more. */
function idleMs(entries, startMs, endMs) {
  const spans = entries
    .map((e) => [Date.parse(e.startedDateTime), Date.parse(e.startedDateTime) + Math.max(0, e.time)])
    .sort((a, b) => a[0] - b[0]);
  let idle = 0;
  let covered = startMs;
  for (const [from, to] of spans) {
    if (from - covered >= IDLE_GAP_MS) idle += from - covered;
    covered = Math.max(covered, to);
  }
  if (endMs - covered >= IDLE_GAP_MS) idle += endMs - covered;
  return idle;
}

/** The INFO finding of the budget service: `N unplanned 429s; waited …`. */
function pacingNote(report) {
  const result = report.results.find((r) => r.requirement.id === 'ratelimit/8.1/unplanned-429');
  return result?.findings.map((f) => f.note ?? '').find((n) => /unplanned 429s/.test(n));
}

function unplanned429s(note) {
  const m = /^(\d+) unplanned/.exec(note ?? '');
  return m === null ? undefined : Number(m[1]);
}

const out = mkdtempSync(join(tmpdir(), 'asi-bench-'));
try {
  process.stdout.write('certifying the embedded reference (600/60 per 60 s)...\n');
  const run = await runCertification(out);
  if (run.signal !== null) {
    process.stdout.write(`the run did not finish within ${HARD_STOP_MS / 1000} s and was stopped\n${run.output}\n`);
    process.exit(1);
  }
  const dir = readdirSync(out).find((d) => !d.startsWith('.'));
  if (dir === undefined) {
    process.stdout.write(`no report was written (exit ${run.code})\n${run.output}\n`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(join(out, dir, 'report.json'), 'utf8'));
  const har = JSON.parse(readFileSync(join(out, dir, 'transcript.har'), 'utf8'));
  const { meta } = report;
  const start = Date.parse(meta.startedAt);
  const end = Date.parse(meta.finishedAt);
  const idle = idleMs(har.log.entries, start, end);
  const note = pacingNote(report);
  const refusals = unplanned429s(note);

  const lines = [];
  lines.push(`outcome            ${report.outcome} (exit ${run.code}), limits ${meta.limits.read}/${meta.limits.write} per ${meta.limits.windowS} s`);
  lines.push(`wall time          ${(run.wallMs / 1000).toFixed(1)} s (suites ${(meta.durationMs / 1000).toFixed(1)} s)   target ≤ ${WALL_TARGET_S} s`);
  lines.push(`unplanned 429s     ${refusals ?? 'unknown (ratelimit/8.1/unplanned-429 not in the report)'}   target 0`);
  lines.push(`waiting            ${(idle / 1000).toFixed(1)} s with no request in flight = ${((100 * idle) / meta.durationMs).toFixed(0)}% of the run`);
  if (meta.pacingWaitMs !== undefined) lines.push(`pacer waits        ${(meta.pacingWaitMs / 1000).toFixed(1)} s (slow-downs, Retry-After, window healing)`);
  const detail = note?.split('; ')[1];
  if (detail !== undefined) lines.push(`pacer              ${detail}`);
  lines.push('requests           token           pool   count');
  const total = meta.requests.reduce((n, r) => n + r.requests, 0);
  for (const r of [...meta.requests].sort((a, b) => a.role.localeCompare(b.role) || a.pool.localeCompare(b.pool))) {
    lines.push(`                   ${r.role.padEnd(15)} ${r.pool.padEnd(6)} ${String(r.requests).padStart(5)}`);
  }
  lines.push(`                   ${'total'.padEnd(22)} ${String(total).padStart(5)}`);
  // A benchmark of a run that did not pass measures the wrong thing: say which requirements.
  for (const r of report.results.filter((x) => x.verdict !== 'pass')) {
    const why = r.reason ?? r.findings.find((f) => f.verdict !== 'pass')?.actual ?? '';
    lines.push(`not passed         ${r.requirement.id}: ${r.verdict} ${why}`.trimEnd());
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  const missed = [];
  if (run.wallMs > WALL_TARGET_S * 1000) missed.push(`wall time over ${WALL_TARGET_S} s`);
  if (refusals !== 0) missed.push('unplanned 429s');
  if (report.outcome !== 'conformant') missed.push(`the run was ${report.outcome}`);
  process.stdout.write(missed.length === 0 ? 'targets met\n' : `targets missed: ${missed.join(', ')}\n`);
  process.exitCode = missed.length === 0 ? 0 : 1;
} finally {
  // Keep the evidence of a run that did not pass; a clean run leaves nothing behind.
  if (process.exitCode === 0) rmSync(out, { recursive: true, force: true });
  else process.stdout.write(`reports kept in ${out}\n`);
}
