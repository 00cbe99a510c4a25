import { homedir, tmpdir } from 'node:os';
import { sep } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';

/**
 * Reports travel (CI artifacts, certification packs): they must not show the folders of the
 * machine that wrote them. Each known local folder becomes a short stand-in; the longest first,
 * so that the package inside a home folder reads `<asi-conformance>`, not `~/...`.
 */
function standIns(cwd: string): Array<{ path: string; as: string }> {
  // Asked for every piece of every report: the folders are worked out once per working folder
  // (the temporary and home folders read from the environment each time cost 50 ms a run).
  const known = standInsByCwd.get(cwd);
  if (known !== undefined) return known;
  const list = [
    { path: PACKAGE_ROOT.replace(/[\\/]+$/, ''), as: '<asi-conformance>' },
    { path: process.execPath, as: 'node' },
    { path: cwd.replace(/[\\/]+$/, ''), as: '.' },
    { path: tmpdir().replace(/[\\/]+$/, ''), as: '<tmp>' },
    { path: homedir().replace(/[\\/]+$/, ''), as: '~' },
  ];
  // The root folder would match every path there is.
  const found = list.filter((x) => x.path.split(sep).some((s) => s !== '')).sort((a, b) => b.path.length - a.path.length);
  standInsByCwd.set(cwd, found);
  return found;
}

const standInsByCwd = new Map<string, Array<{ path: string; as: string }>>();

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A stand-in as HTML and XML text: `<tmp>` written raw would open an element there. */
function asMarkup(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Replaces local folders in `text` by their stand-ins, only where a whole path segment ends. In
 * `markup` (report.html, junit.xml, already escaped) the stand-ins are escaped too, as the same
 * report renders them from report.json, where they already stand.
 */
export function hideLocalPaths(text: string, cwd = process.cwd(), markup = false): string {
  let out = text;
  for (const { path, as } of standIns(cwd)) {
    if (!out.includes(path)) continue;
    // Not followed by a name character: `/work/main` must not turn `/work/mainframe` into `.frame`.
    out = out.replace(new RegExp(`${escapeRegExp(path)}(?![\\w.-])`, 'g'), markup ? asMarkup(as) : as);
  }
  return out;
}

/** Any absolute path left after the stand-ins, cut to `…/` and its file name. */
const OTHER_ABSOLUTE = /(^|=)\/(?:[^/\s]+\/)+([^/\s]+)$/;

/**
 * A file the user named (profile, expectations, baseline, TLS material) as a report shows it:
 * a known folder as its stand-in, any other absolute path (a profile in /srv) as `…/` and its name.
 */
export function pathForReport(path: string, cwd = process.cwd()): string {
  return hideLocalPaths(path, cwd).replace(OTHER_ABSOLUTE, (_m, lead: string, name: string) => `${lead}…/${name}`);
}

/**
 * The command line as a report shows it: known folders as stand-ins, and any other absolute path
 * (a CA bundle under /etc, a profile in /srv) cut to `…/` and its file name.
 */
export function argvForReport(argv: readonly string[], cwd = process.cwd()): string[] {
  return argv.map((arg) => pathForReport(arg, cwd));
}
